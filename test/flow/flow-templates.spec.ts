import { parseFlowActions } from '../../src/flow/flow-actions';
import { renderTemplate, TemplateError, templateSyntaxError } from '../../src/flow/flow-templates';

/** The templates of flow actions and the actions' JSON format, without an app. */
describe('flow templates and actions', () => {
  const variables = {
    webhook: { orderNumber: 'abc', customer: { name: 'Ada <Lovelace>' }, items: [1, 2], empty: null },
  };

  it('renders body values as they are, nested paths, lists as JSON and nulls as nothing', () => {
    expect(renderTemplate('{{webhook.orderNumber}} for {{webhook.customer.name}} & co', variables)).toBe(
      'abc for Ada <Lovelace> & co',
    );
    expect(renderTemplate('{{json webhook.items}} {{webhook.items.[1]}} [{{webhook.empty}}]', variables)).toBe(
      '[1,2] 2 []',
    );
    expect(renderTemplate('{{#if webhook.missing}}yes{{else}}no{{/if}}', variables)).toBe('no');
  });

  it('names the expression and the first missing part of its path instead of rendering a blank', () => {
    const failure = (source: string) => {
      try {
        renderTemplate(source, variables);
      } catch (error) {
        expect(error).toBeInstanceOf(TemplateError);
        return (error as Error).message;
      }
      throw new Error('rendered');
    };
    expect(failure('Order {{webhook.number}}')).toBe('{{webhook.number}}: the run has no variable "webhook.number"');
    expect(failure('line one\n  {{ webhook.customer.address.city }}')).toBe(
      '{{ webhook.customer.address.city }}: the run has no variable "webhook.customer.address"',
    );
    expect(failure('{{order}}')).toBe('{{order}}: the run has no variable "order"');
  });

  it('reports template syntax errors on one line', () => {
    expect(templateSyntaxError('{{webhook.orderNumber}}')).toBeUndefined();
    expect(templateSyntaxError('Hi {{webhook.name')).toBe('Parse error on line 1 near "Hi {{webhook.name"');
  });

  it('reads the actions list, methods in any case', () => {
    expect(
      parseFlowActions(
        JSON.stringify([
          { type: 'httpRequest', method: 'post', url: 'https://{{webhook.host}}/x', body: { a: ['{{webhook.a}}', 1] } },
          { type: 'setOrderStatus', orderNumber: '{{webhook.n}}', status: '{{webhook.status}}' },
        ]),
      ),
    ).toEqual([
      { type: 'httpRequest', method: 'POST', url: 'https://{{webhook.host}}/x', body: { a: ['{{webhook.a}}', 1] } },
      { type: 'setOrderStatus', orderNumber: '{{webhook.n}}', status: '{{webhook.status}}' },
    ]);
    expect(() => parseFlowActions('{"type":"log","message":"x"}')).toThrow(
      'The actions are not valid: must be a JSON array of 1 to 20 actions',
    );
    expect(() =>
      parseFlowActions(JSON.stringify([{ type: 'httpRequest', method: 'GET', url: 'x', body: ['{{a'] }])),
    ).toThrow('action 1: "url" must be an http:// or https:// URL; action 1: "body" is not a valid template');
  });
});
