/** Why an outside call gave no usable answer: no answer in time, no connection, or an unreadable body. */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'garbage',
    message: string,
    /** The HTTP status, when the service answered at all. */
    readonly status: number | null = null,
  ) {
    super(message);
  }

  /**
   * Whether the service may have acted on the request: it was sent and no clear answer came back. Only a
   * connection that could not be opened, or an error status, proves it was not.
   */
  get outcomeUnknown(): boolean {
    if (this.reason === 'garbage') return this.status !== null && this.status < 400;
    return this.reason === 'timeout' || !this.neverConnected;
  }

  private get neverConnected(): boolean {
    const code = (this.cause as { code?: string } | undefined)?.code;
    return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string or form data. */
  body?: unknown;
  timeoutMs: number;
}

export interface OutboundResponse<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the body was empty. */
  json: T | undefined;
}

/**
 * One HTTP exchange with an outside service, bounded by a timeout and never following redirects. A body
 * that is not JSON raises `garbage`; HTTP error statuses are returned, so each client maps them itself.
 */
export async function requestJson<T = unknown>(url: string, request: OutboundRequest): Promise<OutboundResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | URLSearchParams | undefined;
  if (request.body instanceof URLSearchParams || typeof request.body === 'string') body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new OutboundError('timeout', `no answer from ${new URL(url).host} within ${request.timeoutMs} ms`);
    }
    const failure = new OutboundError('network', `${new URL(url).host} unreachable: ${(error as Error).message}`);
    failure.cause = (error as Error).cause;
    throw failure;
  }
  if (text.trim() === '') return { status: response.status, headers: response.headers, json: undefined };
  try {
    return { status: response.status, headers: response.headers, json: JSON.parse(text) as T };
  } catch {
    const message = `${new URL(url).host} answered ${response.status} with a body that is not JSON`;
    throw new OutboundError('garbage', message, response.status);
  }
}
