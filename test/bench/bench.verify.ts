/** Requests whose answers must match between the production server and each baseline. */
const CASES: { url: string; body?: string }[] = [
  { url: '', body: JSON.stringify({ params: { operation: 'add', a: 2, b: 3 } }) },
  { url: '', body: JSON.stringify({ operation: 'divide', a: '7', b: '2' }) },
  { url: '?operation=multiply&a=1.5&b=4' },
  { url: '', body: JSON.stringify({ params: { a: 1 } }) },
  { url: '', body: JSON.stringify({ params: { operation: 'divide', a: 1, b: 0 } }) },
  { url: '', body: JSON.stringify({ params: { operation: 'modulo', a: 1, b: 'x' } }) },
  { url: '', body: '[1]' },
];

type Answer = { status: number; body: Record<string, unknown>; requestId: string | null };

async function ask(base: string, { url, body }: (typeof CASES)[number]): Promise<Answer> {
  const response = await fetch(base + url, {
    method: 'POST',
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  });
  const json = (await response.json()) as Record<string, unknown>;
  const { metadata, ...rest } = json;
  if (typeof (metadata as { requestId?: unknown })?.requestId !== 'string')
    throw new Error(`${base}: no metadata`);
  return { status: response.status, body: rest, requestId: response.headers.get('x-request-id') };
}

/**
 * Throws when a baseline answers differently from the production server. `successOnly`: the
 * load's own request alone, for a baseline whose refusals are its packages' stock ones.
 */
export async function verifySameAnswers(
  reference: string,
  candidate: string,
  name: string,
  successOnly = false,
): Promise<void> {
  for (const c of successOnly ? CASES.slice(0, 1) : CASES) {
    const [want, got] = await Promise.all([ask(reference, c), ask(candidate, c)]);
    if (!got.requestId) throw new Error(`${name}: no x-request-id header`);
    const same =
      want.status === got.status && JSON.stringify(want.body) === JSON.stringify(got.body);
    if (!same) {
      throw new Error(
        `${name} answers ${c.url} ${c.body ?? ''} differently:\n  nest: ${want.status} ${JSON.stringify(want.body)}\n  ${name}: ${got.status} ${JSON.stringify(got.body)}`,
      );
    }
  }
}
