/**
 * A small orders API in several versions, for consumer and can-i-deploy tests. Each option
 * switches one change on, so a test reads as the change it makes.
 */
export interface OrdersApiOptions {
  /** DELETE /orders/{id} removed (ENDPOINT_REMOVED). */
  withoutDelete?: boolean;
  /** `total` removed from the GET /orders/{id} response (RESPONSE_SCHEMA_CHANGED). */
  withoutTotal?: boolean;
  /** A new optional response field and a new endpoint (not breaking). */
  withAdditions?: boolean;
  /** Server base path (default /v1); a different one moves every endpoint. */
  basePath?: string;
}

export function ordersApi(options: OrdersApiOptions = {}): string {
  const order: Record<string, unknown> = {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: { type: 'string' },
      status: { type: 'string', enum: ['open', 'paid', 'shipped'] },
      ...(options.withoutTotal ? {} : { total: { type: 'number' } }),
      ...(options.withAdditions ? { note: { type: 'string' } } : {}),
    },
  };
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const paths: Record<string, Record<string, unknown>> = {
    '/orders': {
      get: { operationId: 'listOrders', responses: { '200': { description: 'orders', content: json({ type: 'array', items: { $ref: '#/components/schemas/Order' } }) } } },
      post: {
        operationId: 'createOrder',
        requestBody: { required: true, content: json({ type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } }) },
        responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Order' }) } },
      },
    },
    '/orders/{id}': {
      parameters: [idParameter],
      get: { operationId: 'getOrder', responses: { '200': { description: 'the order', content: json({ $ref: '#/components/schemas/Order' }) } } },
      ...(options.withoutDelete ? {} : { delete: { operationId: 'deleteOrder', responses: { '204': { description: 'deleted' } } } }),
    },
    '/customers/{id}': {
      get: {
        operationId: 'getCustomer',
        parameters: [idParameter],
        responses: { '200': { description: 'the customer', content: json({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } }) } },
      },
    },
  };
  if (options.withAdditions) {
    paths['/orders/{id}/items'] = {
      get: { operationId: 'listItems', parameters: [idParameter], responses: { '200': { description: 'items', content: json({ type: 'array', items: { type: 'string' } }) } } },
    };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Orders', version: '0.0.0' },
    servers: [{ url: `https://orders.example.com${options.basePath ?? '/v1'}` }],
    paths,
    components: { schemas: { Order: order } },
  });
}
