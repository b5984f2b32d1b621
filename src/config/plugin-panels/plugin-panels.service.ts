import { DashboardLayout, WidgetPlacement } from '../dashboard-layout';
import { RefusedSubmission, SettingsField, SettingsForm } from '../settings-form';
import { SettingsService } from '../settings.service';

/**
 * A plugin's dashboard and settings panels: the plugin supplies the dashboard's figures, its widget layout
 * and its settings form; saving either is the same for every plugin.
 */
export abstract class PluginPanelsService {
  protected constructor(
    protected readonly settings: SettingsService,
    private readonly layout: DashboardLayout,
    private readonly form: SettingsForm,
  ) {}

  /** What the plugin's dashboard view shows, including its arranged `widgets`. */
  abstract dashboard(): Promise<object>;

  saveLayout(body: Record<string, unknown>): Promise<WidgetPlacement[]> {
    return this.layout.save(this.settings, body);
  }

  settingsFields(refused?: RefusedSubmission): SettingsField[] {
    return this.form.fields(this.settings, refused);
  }

  saveSettings(body: Record<string, unknown>): Promise<void> {
    return this.form.save(this.settings, body);
  }
}
