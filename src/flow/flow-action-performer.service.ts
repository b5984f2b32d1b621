import { Injectable, Logger } from '@nestjs/common';
import { isOrderStatus, ORDER_STATUSES } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { OrdersService } from '../commerce/orders/orders.service';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../common/email-address';
import { AppError } from '../common/errors/app-error';
import { TransactionRunner } from '../database/transaction-runner';
import { MailService } from '../mail/mail.service';
import { FlowAction, JsonTemplate, mapStrings } from './flow-actions';
import { FlowHttpClient, FlowHttpError } from './flow-http.client';
import { renderTemplate, TemplateError } from './flow-templates';

/** Which run and which of its actions is being performed. */
export interface ActionContext {
  runId: number;
  /** 0-based position of the action in the run. */
  index: number;
  flowName: string;
  variables: Record<string, unknown>;
}

/** Why an action failed; `retryable` when the same action may succeed later (an outside service was down). */
export class FlowActionError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * Performs one flow action and answers a line for the runs log. Each action is safe to perform again when
 * a retried run repeats it: a status change to the current status changes nothing and the e-mail is keyed
 * by run and action; only an HTTP call may reach its receiver twice.
 */
@Injectable()
export class FlowActionPerformer {
  private readonly logger = new Logger('Flow');

  constructor(
    private readonly orders: OrdersService,
    private readonly statuses: OrderStatusService,
    private readonly mail: MailService,
    private readonly runner: TransactionRunner,
    private readonly http: FlowHttpClient,
  ) {}

  async perform(action: FlowAction, context: ActionContext): Promise<string> {
    const render = (text: string) => renderTemplate(text, context.variables);
    try {
      switch (action.type) {
        case 'log':
          return this.log(render(action.message), context);
        case 'setOrderStatus':
          return await this.setOrderStatus(action, render(action.orderNumber), render(action.status).trim());
        case 'sendEmail':
          return await this.sendEmail(render(action.to).trim(), render(action.subject), render(action.body), context);
        case 'httpRequest':
          return await this.callUrl(action, render);
      }
    } catch (error) {
      if (error instanceof FlowActionError) throw error;
      if (error instanceof TemplateError || error instanceof AppError) throw new FlowActionError(error.message, false);
      if (error instanceof FlowHttpError) throw new FlowActionError(error.message, error.retryable);
      throw error;
    }
  }

  private log(message: string, context: ActionContext): string {
    this.logger.log(`flow "${context.flowName}" run ${context.runId}: ${message}`);
    return `logged: ${message}`;
  }

  private async setOrderStatus(
    action: Extract<FlowAction, { type: 'setOrderStatus' }>,
    orderNumber: string,
    status: string,
  ): Promise<string> {
    if (!isOrderStatus(status)) {
      throw new FlowActionError(`"${status}" is not an order status (${ORDER_STATUSES.join(', ')})`, false);
    }
    const order = await this.orders.byNumber(orderNumber.trim());
    // The number itself stays out of the message: it is a guest's key to the order, and failures are logged.
    if (!order) throw new FlowActionError(`no order has the number given by ${action.orderNumber}`, false);
    const change = await this.statuses.change(order.id, status, 'flow');
    return change
      ? `order ${order.reference}: ${change.from} → ${change.to}`
      : `order ${order.reference} was already ${status}`;
  }

  private async sendEmail(to: string, subject: string, body: string, context: ActionContext): Promise<string> {
    if (to.length > MAX_EMAIL_LENGTH) {
      // Not quoted: the value may be a whole webhook body, and the reason is stored and logged.
      const why = `the address is ${to.length} characters long, more than the ${MAX_EMAIL_LENGTH} an e-mail address may have`;
      throw new FlowActionError(why, false);
    }
    if (!isEmailAddress(to)) throw new FlowActionError(`"${to}" is not an e-mail address`, false);
    await this.runner.run((tx) =>
      this.mail.send(tx, { to, subject, text: body }, `flow-run:${context.runId}:${context.index}`),
    );
    return `e-mail "${subject}" queued for ${to}`;
  }

  private async callUrl(
    action: Extract<FlowAction, { type: 'httpRequest' }>,
    render: (text: string) => string,
  ): Promise<string> {
    const url = render(action.url);
    const status = await this.http.send({ method: action.method, url, ...requestBody(action.body, render) });
    return `${action.method} ${new URL(url.trim()).host} answered ${status}`;
  }
}

/** A template string is sent as it renders (as JSON when it is JSON); a JSON value is sent as JSON. */
function requestBody(
  body: JsonTemplate | undefined,
  render: (text: string) => string,
): { body?: string; contentType?: string } {
  if (body === undefined) return {};
  if (typeof body !== 'string') {
    return { body: JSON.stringify(mapStrings(body, render)), contentType: 'application/json' };
  }
  const text = render(body);
  return { body: text, contentType: isJson(text) ? 'application/json' : 'text/plain; charset=utf-8' };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
