import { Global, Injectable, Module } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { DashboardLayout } from '../dashboard-layout';
import { SettingsForm } from '../settings-form';

/** A plugin's settings section, `<handle>/settings`: one form saved all at once. */
export interface PluginSettingsSection {
  form: SettingsForm;
  /** A view of the plugin's own (given `fields` and `problem`); without one, the core's `cp/plugin-settings`. */
  view?: string;
}

/** What the core's dashboard view shows: per widget id, the widget's facts, label → value. */
export interface DashboardFacts {
  facts: Record<string, Record<string, string | number>>;
}

/**
 * A plugin's dashboard, `<handle>/dashboard`, where `<handle>` itself leads. With a `layout`, staff arrange and hide its
 * widgets (`dashboard/save-layout`) and the view gets them, arranged, as `widgets`; `data()` is the rest of what the
 * page shows. A plugin's own view shows whatever `data()` gives; the core's (`cp/plugin-dashboard`, when no `view` is
 * named) shows each widget's `DashboardFacts`.
 */
export type PluginDashboard =
  | { layout?: DashboardLayout; data(): Promise<object>; view: string }
  | { layout: DashboardLayout; data(): Promise<DashboardFacts>; view?: undefined };

/** The pages the core serves for a plugin under `<cp>/<handle>/`, as its `StorefrontPlugin.cp` declares them. */
export interface PanelledPlugin {
  handle: string;
  name: string;
  settings?: PluginSettingsSection;
  dashboard?: PluginDashboard;
  /** A license panel, `<handle>/license`: activate a token, redeem a purchase code, revoke. */
  license?: boolean;
}

export type PluginPanel = 'settings' | 'dashboard' | 'license';

/** A plugin that declared `panel`. */
export type PluginWith<P extends PluginPanel> = PanelledPlugin & Required<Pick<PanelledPlugin, P>>;

/** What every plugin page's view is given besides its own model: the plugin, and which panels it has (its tabs). */
export function panelPageModel(plugin: PanelledPlugin, title: string) {
  return {
    layout: 'cp',
    title,
    plugin: { handle: plugin.handle, name: plugin.name },
    panels: {
      dashboard: Boolean(plugin.dashboard),
      settings: Boolean(plugin.settings),
      license: Boolean(plugin.license),
    },
  };
}

/** The pages plugins declared, filled by `PluginRegistrar` when `plugins-after-load` fires; the core's CP serves them. */
@Injectable()
export class PluginPanels {
  private readonly plugins = new Map<string, PanelledPlugin>();

  add(plugin: PanelledPlugin): void {
    this.plugins.set(plugin.handle, plugin);
  }

  /**
   * The plugin a route's `:handle` names (Express matches paths whatever their case), when it declared `panel`; else
   * 404, as for a page that is not there.
   */
  declaring<P extends PluginPanel>(handle: string, panel: P): PluginWith<P> {
    const plugin = this.plugins.get(handle.toLowerCase());
    if (!plugin?.[panel]) throw AppError.notFound(`${plugin?.name ?? 'This plugin'} has no ${panel} page.`);
    return plugin as PluginWith<P>;
  }
}

@Global()
@Module({ providers: [PluginPanels], exports: [PluginPanels] })
export class PluginPanelsModule {}
