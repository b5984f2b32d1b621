import { FieldErrors } from '../common/errors/app-error';
import { fieldName, SettingDefinition, settingLabel, SettingValueError } from './setting-definition';
import { SettingsService } from './settings.service';
import { settingsErrors } from './settings-errors';

/** One input of a CP settings form, as `views/partials/settings-fields.hbs` renders it. */
export interface SettingsField {
  name: string;
  label: string;
  description: string;
  kind: 'checkbox' | 'select' | 'secret' | 'number' | 'json' | 'text';
  value: string;
  checked: boolean;
  options: Array<{ value: string; selected: boolean }>;
  /** For secrets: what is stored, masked (the value itself never reaches the page). */
  masked: string;
  errors: string[];
}

/** A submission that was refused: shown again with what was typed (never a secret) and the field errors. */
export interface RefusedSubmission {
  body: Record<string, unknown>;
  errors: FieldErrors;
}

/**
 * A CP form over a group of settings. Fields are named by the key without its plugin prefix
 * (`carrier-a.password` → `password`); a form post saves every field at once or, when any value is invalid,
 * nothing.
 */
export class SettingsForm {
  constructor(
    private readonly definitions: readonly SettingDefinition[],
    private readonly labels: Readonly<Record<string, string>> = {},
  ) {}

  /** The fields with the stored values, or with a refused submission's input and errors. */
  fields(settings: SettingsService, refused?: RefusedSubmission): SettingsField[] {
    return this.definitions.map((definition) => {
      const name = fieldName(definition.key);
      // An unticked box is not sent at all; any other field not sent kept its stored value.
      const resubmitted = refused && (name in refused.body || definition.type === 'boolean');
      const shown = resubmitted ? displayedInput(definition, refused.body[name]) : storedText(definition, settings);
      const kind = kindOf(definition);
      return {
        name,
        label: this.labels[name] ?? settingLabel(definition.key),
        description: definition.description,
        kind,
        value: kind === 'checkbox' || kind === 'secret' ? '' : shown,
        checked: shown === 'true',
        options: (definition.choices ?? []).map((choice) => ({ value: choice, selected: choice === shown })),
        masked: kind === 'secret' ? maskSecret(String(settings.value(definition.key) ?? '')) : '',
        errors: refused?.errors[name] ?? [],
      };
    });
  }

  /**
   * The typed values a form post gives, for SettingsService.save. A checkbox comes with a hidden `off` field of
   * its name before it (views/partials/settings-fields.hbs), so an unticked box is false, while a post that does
   * not name a setting at all (a script, a form of another section) keeps it as stored; so does a secret left blank. Every field is checked before anything is
   * saved, and all problems are reported at once (a 400 with `fields`).
   */
  parse(settings: SettingsService, body: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    const errors: FieldErrors = {};
    const problems: string[] = [];
    for (const definition of this.definitions) {
      const name = fieldName(definition.key);
      const input = submittedInput(definition, body[name]);
      if (input === KEEP) continue;
      try {
        values[definition.key] = settings.coerce(definition, input);
      } catch (error) {
        if (!(error instanceof SettingValueError)) throw error;
        problems.push(error.message);
        errors[name] = [error.message.replace(`${definition.key} `, '')];
      }
    }
    if (problems.length > 0) throw settingsErrors.invalid_setting({ problems }, { fields: errors });
    return values;
  }

  /**
   * Saves a form post by `actor` all-or-nothing (SettingsService.save writes in one transaction, the changed
   * settings only); the keys that changed.
   */
  async save(settings: SettingsService, body: Record<string, unknown>, actor: string): Promise<string[]> {
    return settings.save(this.parse(settings, body), actor);
  }
}

/** Enough to recognise a stored secret, never enough to use it. */
export function maskSecret(secret: string): string {
  if (secret === '') return 'not set';
  return secret.length <= 8 ? '••••••••' : `••••••••${secret.slice(-4)}`;
}

const KEEP = Symbol('keep the stored value');
const TICKED: readonly unknown[] = [true, 'true', 'on', '1'];

function submittedInput(definition: SettingDefinition, sent: unknown): unknown {
  // A ticked box arrives after its hidden field: the last value is the box's.
  const input = Array.isArray(sent) ? sent.at(-1) : sent;
  if (input === undefined) return KEEP;
  const blank = typeof input === 'string' && input.trim() === '';
  if (definition.type === 'boolean') return blank || input === 'off' ? false : input;
  if (definition.secret && blank) return KEEP;
  if (definition.type === 'json' && blank) return definition.default;
  return input;
}

/** A stored value as its field shows it: JSON as text, a boolean as `true`/`false`. */
function storedText(definition: SettingDefinition, settings: SettingsService): string {
  const value = settings.value(definition.key);
  return definition.type === 'json' ? JSON.stringify(value) : String(value ?? '');
}

/** A refused input as its field shows it again: a ticked box stays ticked, text as typed. */
function displayedInput(definition: SettingDefinition, sent: unknown): string {
  const input = Array.isArray(sent) ? sent.at(-1) : sent;
  if (definition.type === 'boolean') return String(TICKED.includes(input));
  return typeof input === 'string' ? input : JSON.stringify(input);
}

function kindOf(definition: SettingDefinition): SettingsField['kind'] {
  if (definition.type === 'boolean') return 'checkbox';
  if (definition.choices) return 'select';
  if (definition.secret) return 'secret';
  if (definition.type === 'integer') return 'number';
  if (definition.type === 'json') return 'json';
  return 'text';
}
