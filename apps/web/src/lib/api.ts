// The one typed HTTP client of the web app. Requests carry the session cookie; failures surface as
// ApiError so callers decide what the user sees (spec: most fetch failures are silent).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export async function apiGet<T>(
  path: string,
  init: { signal?: AbortSignal; credentials?: boolean } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      credentials: init.credentials === false ? 'omit' : 'include',
      headers: { accept: 'application/json' },
      signal: init.signal,
    });
  } catch {
    throw new ApiError(0, 'Network Error');
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const message = (body as { message?: string } | undefined)?.message ?? res.statusText;
    throw new ApiError(res.status, message, body);
  }
  return body as T;
}
