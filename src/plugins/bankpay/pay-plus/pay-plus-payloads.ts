import { createHash } from 'node:crypto';
import { Order, OrderLine, toMajor } from '../../../plugin-api';
import { cardholderName } from '../card-pay/card-pay.service';

/** What the payload builders need besides the order: the currency's decimals and the variable symbol. */
export interface PayloadContext {
  order: Order;
  amount: number;
  decimals: number;
  variableSymbol: string;
}

/** `POST /v1/payments` body (docs/integrations.md); transfer and QR carry a remittance note. */
export function paymentBody(context: PayloadContext, preferredMethod: string): Record<string, unknown> {
  const { order } = context;
  const body: Record<string, unknown> = {
    basePayment: {
      instructedAmount: { amountValue: toMajor(context.amount, context.decimals), currency: order.currency },
      endToEnd: { variableSymbol: context.variableSymbol },
    },
    userData: applicant(order),
  };
  if (preferredMethod === 'CARD_PAY') {
    const holder = cardholderName(`${order.billingAddress.firstName} ${order.billingAddress.lastName}`);
    if (holder.length >= 2) body.cardDetail = { cardHolder: holder.slice(0, 45) };
  } else {
    body.bankTransfer = { remittanceInformationUnstructured: remittanceNote(order) };
  }
  return body;
}

/**
 * `POST /v1/applications` body. The bank wants the items to add up to the amount exactly, so shipping and
 * the payment fee are items too; when discounts or separate tax keep the lines from adding up, the order
 * goes as one item for its total rather than being refused.
 */
export function loanApplicationBody(context: PayloadContext, lines: OrderLine[]): Record<string, unknown> {
  const { order, decimals } = context;
  const items = [
    ...lines.map((line) => item(line.qty, line.total, line.name)),
    ...(order.shippingTotal > 0 ? [item(1, order.shippingTotal, `Shipping: ${order.shippingName}`)] : []),
    ...(order.paymentFee > 0 ? [item(1, order.paymentFee, `Payment fee: ${order.paymentName}`)] : []),
  ];
  const itemsTotal = items.reduce((sum, { minor }) => sum + minor, 0);
  const orderItems = (
    itemsTotal === context.amount ? items : [item(1, context.amount, `Order ${order.reference}`)]
  ).map(({ quantity, minor, name }) => ({
    quantity,
    totalItemPrice: toMajor(minor, decimals),
    itemDetail: { itemDetailSK: { itemName: name.slice(0, 255) } },
  }));
  return {
    order: { orderNo: order.reference, orderItems },
    applicant: applicant(order),
    externalApplicantId: externalApplicantId(order.email),
    instructedAmount: { amountValue: toMajor(context.amount, decimals), currency: order.currency },
  };
}

/** A stable id for the shopper that does not disclose the e-mail address to whoever reads the bank's logs. */
export function externalApplicantId(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

function item(quantity: number, minor: number, name: string) {
  return { quantity, minor, name };
}

function applicant(order: Order): Record<string, string> {
  const address = order.billingAddress;
  const person: Record<string, string> = {
    firstName: address.firstName.slice(0, 30),
    lastName: address.lastName.slice(0, 30),
    email: order.email,
  };
  if (address.phone) person.phone = address.phone;
  return person;
}

/** The bank takes ≤ 100 characters of `[ 0-9a-zA-Z?:()/.,'+-]` here. */
function remittanceNote(order: Order): string {
  return `Order ${order.reference}`.replace(/[^ 0-9a-zA-Z?:()/.,'+-]/g, '').slice(0, 100);
}
