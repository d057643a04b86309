import { spawnSync } from 'node:child_process';

/**
 * Python's `standardwebhooks` (PyPI), the verifier a Python receiver uses (docs/webhooks.md), run
 * in a child `python3` so a suite checks deliveries with it and nothing of ours.
 */
const PYTHON = 'python3';

/** Reads {secret, headers, body} on stdin, verifies, prints the event as JSON or exits 1. */
const VERIFY = `
import json, sys
from standardwebhooks.webhooks import Webhook, WebhookVerificationError
given = json.load(sys.stdin)
try:
    event = Webhook(given["secret"]).verify(given["body"].encode(), given["headers"])
except WebhookVerificationError as error:
    print(f"refused: {error}")
    sys.exit(1)
print(json.dumps(event))
`;

/** Why the Python package cannot run here, or undefined when it can. */
function missingPython(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import standardwebhooks.webhooks'], { timeout: 20_000 });
  if (probe.error) return `${PYTHON} is not installed (${probe.error.message})`;
  if (probe.status !== 0) {
    const why = probe.stderr.toString().trim().split('\n').at(-1);
    return `${PYTHON} has no standardwebhooks package (${why})`;
  }
  return undefined;
}

/**
 * `describe` when python3 imports `standardwebhooks`, else `describe.skip` with a line saying why
 * and how to run it. Skipped under CI too: PyPI is not reachable everywhere CI runs and Debian
 * does not package it; REQUIRE_PYTHON_WEBHOOKS=1 makes a missing one a failure instead.
 */
export function describeWithPythonWebhooks(): jest.Describe {
  const missing = missingPython();
  if (!missing) return describe;
  if (process.env.REQUIRE_PYTHON_WEBHOOKS === '1')
    throw new Error(`REQUIRE_PYTHON_WEBHOOKS=1 but ${missing}`);
  console.warn(
    `Python Standard Webhooks suite skipped: ${missing}; ` +
      `pip install standardwebhooks (PyPI) to run it`,
  );
  return describe.skip;
}

/** What Python's `Webhook(secret).verify(body, headers)` gives: the event, or its refusal. */
export function verifyInPython(
  secret: string,
  headers: Record<string, string>,
  body: string,
): { ok: true; event: unknown } | { ok: false; refusal: string } {
  const run = spawnSync(PYTHON, ['-c', VERIFY], {
    input: JSON.stringify({ secret, headers, body }),
    timeout: 20_000,
  });
  const out = run.stdout.toString().trim();
  if (run.status === 0) return { ok: true, event: JSON.parse(out) as unknown };
  if (run.status === 1 && out.startsWith('refused: ')) return { ok: false, refusal: out };
  throw new Error(`python3 failed (${run.status}): ${run.stderr.toString()}`);
}
