import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { StoreService } from '../commerce/stores/store.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { SettingsService } from '../config/settings.service';
import { Tx } from '../database/transaction-runner';
import { defineJob, JobQueue } from '../jobs/job-queue.service';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/**
 * A message with files, delivered straight from a job of the caller's that renders them (a gift-card
 * voucher): files do not belong in a queued job row.
 */
export interface MailWithAttachments extends MailMessage {
  attachments: Array<{ filename: string; content: Buffer; contentType: string }>;
}

const SEND_JOB = defineJob<MailMessage>('mail.send');

/**
 * Outgoing e-mail. `send` only records a job in the caller's transaction; the job delivers it over SMTP
 * (`SMTP_URL`) or, without SMTP, writes an .eml file under `data/mail/` for a developer to open.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly transport: Transporter;

  constructor(
    private readonly jobs: JobQueue,
    private readonly settings: SettingsService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.transport = config.smtpUrl
      ? createTransport(config.smtpUrl)
      : createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  onModuleInit(): void {
    this.jobs.register(SEND_JOB, (message, job) => this.deliver(message, job.id), {
      // A sent message's text holds reset links and codes, share and order links: only who and what stay on record.
      keepWhenDone: ({ to, subject }) => ({ to, subject }),
    });
  }

  /** Queues a message; `key` makes it once-only. Order e-mails have a job of their own (`OrderMails`). */
  send(tx: Tx, message: MailMessage, key?: string): Promise<void> {
    return this.jobs.enqueue(tx, SEND_JOB, { ...message }, { key: key && `mail:${key}` });
  }

  /**
   * Delivers now, from inside a job: `jobId` becomes the Message-ID, so a retried job's second delivery can
   * be dropped by the receiving server. Everything else queues with `send`.
   */
  async deliver(message: MailMessage | MailWithAttachments, jobId: number): Promise<void> {
    const info = await this.transport.sendMail({
      from: await this.sender(),
      ...message,
      // The same id on a retried job lets receiving servers drop a duplicate delivery.
      messageId: `<job-${jobId}@${new URL(this.config.baseUrl).hostname}>`,
    });
    if (!this.config.smtpUrl) {
      // Written in a folder beside it, then moved in: whoever watches data/mail only ever sees whole messages.
      const name = `${Date.now()}-${jobId}.eml`;
      const [dir, partial] = [join(this.config.dataDir, 'mail'), join(this.config.dataDir, 'mail.partial')];
      await Promise.all([mkdir(dir, { recursive: true }), mkdir(partial, { recursive: true })]);
      await writeFile(join(partial, name), (info as { message: Buffer }).message);
      await rename(join(partial, name), join(dir, name));
    }
  }

  /**
   * Who mail comes from: the store's sender settings (`mailSenderName`, `mailSenderEmail`), else what MAIL_FROM
   * says; a MAIL_FROM without a name sends in the store's name.
   */
  private async sender(): Promise<{ name: string; address: string }> {
    const configured = mailbox(this.config.mailFrom);
    return {
      name: this.settings.get('mailSenderName') || configured.name || (await this.stores.default()).name,
      address: this.settings.get('mailSenderEmail') || configured.address,
    };
  }
}

/** The name (maybe empty) and address of a sender written `Shop <shop@example.com>` or `shop@example.com`. */
export function mailbox(text: string): { name: string; address: string } {
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  return named ? { name: named[1].replace(/^"|"$/g, ''), address: named[2] } : { name: '', address: text.trim() };
}
