import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { Tx } from '../database/transaction-runner';
import { JobQueue } from '../jobs/job-queue.service';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

const SEND_JOB = 'mail.send';

/**
 * Outgoing e-mail. `send` only records a job in the caller's transaction; the job delivers it over SMTP
 * (`SMTP_URL`) or, without SMTP, writes an .eml file under `data/mail/` for a developer to open.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly transport: Transporter;

  constructor(
    private readonly jobs: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.transport = config.smtpUrl
      ? createTransport(config.smtpUrl)
      : createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  onModuleInit(): void {
    this.jobs.register<MailMessage>(SEND_JOB, (message, job) => this.deliver(message, job.id));
  }

  /** Queues a message; `key` makes it once-only (e.g. `order-confirmation:<number>`). */
  send(tx: Tx, message: MailMessage, key?: string): Promise<void> {
    return this.jobs.enqueue(tx, SEND_JOB, { ...message }, { key: key && `mail:${key}` });
  }

  private async deliver(message: MailMessage, jobId: number): Promise<void> {
    const info = await this.transport.sendMail({
      from: this.config.mailFrom,
      ...message,
      // The same id on a retried job lets receiving servers drop a duplicate delivery.
      messageId: `<job-${jobId}@${new URL(this.config.baseUrl).hostname}>`,
    });
    if (!this.config.smtpUrl) {
      const dir = join(this.config.dataDir, 'mail');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${Date.now()}-${jobId}.eml`), (info as { message: Buffer }).message);
    }
  }
}
