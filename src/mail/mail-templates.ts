import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { VIEWS_DIR } from '../web/paths';
import { FALLBACK_LANGUAGE, translations } from '../web/i18n/translations';

/** The shop's own e-mail templates. */
export const MAIL_VIEWS_DIR = join(VIEWS_DIR, 'mail');

/** A message in both forms a mail program may show (multipart/alternative), and its subject. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** What every template is given: at least the language its `{{t}}` texts are written in. */
export interface MailModel {
  lang: string;
  [name: string]: unknown;
}

type Form = 'html' | 'text';

/**
 * E-mails written from Handlebars templates under `views/mail/`: a mail `<name>` is `<name>.subject.hbs`,
 * `<name>.html.hbs` and `<name>.text.hbs`, its HTML put into `layouts/mail.html.hbs` and its text into
 * `layouts/mail.text.hbs` (as `body`), both with the partials of `partials/` (`partials/items.html.hbs` is
 * `{{> items}}` in HTML, `partials/items.text.hbs` in text). A file at the same path under `MAIL_TEMPLATES_DIR` is
 * used instead of the shop's own, a partial or a layout as well. HTML values are escaped, text and subject are
 * not. `{{t "key" name=value}}` translates into the model's `lang`; `{{eq a b}}` compares. Templates are read once,
 * at first use: a changed override takes effect at the next start.
 */
@Injectable()
export class MailTemplates {
  /** The folders a template is looked for in, the shop's own first. */
  private readonly dirs: string[];
  private readonly engines: Record<Form, typeof Handlebars>;
  private readonly compiled = new Map<string, Handlebars.TemplateDelegate>();

  constructor(@InjectConfig() config: AppConfig) {
    this.dirs = [...(config.mailTemplatesDir ? [config.mailTemplatesDir] : []), MAIL_VIEWS_DIR];
    this.engines = { html: createEngine(this.dirs, 'html'), text: createEngine(this.dirs, 'text') };
  }

  render(name: string, model: MailModel): RenderedMail {
    const subject = this.fill('text', `${name}.subject.hbs`, model).replace(/\s+/g, ' ').trim();
    const page = (form: Form) =>
      this.fill(form, `layouts/mail.${form}.hbs`, { ...model, body: this.fill(form, `${name}.${form}.hbs`, model) });
    return { subject, html: page('html'), text: tidyText(page('text')) };
  }

  private fill(form: Form, file: string, model: Record<string, unknown>): string {
    const key = `${form}:${file}`;
    let template = this.compiled.get(key);
    if (!template) {
      const path = this.dirs.map((dir) => join(dir, file)).find((candidate) => existsSync(candidate));
      if (!path) throw new Error(`No e-mail template ${file} under ${this.dirs.join(' or ')}`);
      template = this.engines[form].compile(readFileSync(path, 'utf8'), { noEscape: form === 'text' });
      this.compiled.set(key, template);
    }
    return template(model);
  }
}

/** A Handlebars of its own for one form: its helpers, and the partials of every folder, earlier folders winning. */
function createEngine(dirs: string[], form: Form): typeof Handlebars {
  const hbs = Handlebars.create();
  const strings = translations();
  const language = (options: Handlebars.HelperOptions) =>
    (options.data?.root as { lang?: string } | undefined)?.lang ?? FALLBACK_LANGUAGE;
  hbs.registerHelper('t', (key: string, options: Handlebars.HelperOptions) =>
    strings.t(language(options), key, options.hash as Record<string, unknown>),
  );
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  const suffix = `.${form}.hbs`;
  for (const dir of [...dirs].reverse()) {
    const partials = join(dir, 'partials');
    if (!existsSync(partials)) continue;
    for (const file of readdirSync(partials).filter((name) => name.endsWith(suffix))) {
      hbs.registerPartial(file.slice(0, -suffix.length), readFileSync(join(partials, file), 'utf8'));
    }
  }
  return hbs;
}

/** Text as a mail program shows it: no blank runs that templates' conditionals leave, no trailing spaces. */
function tidyText(text: string): string {
  return `${text
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
