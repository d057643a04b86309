/**
 * `npm run sign -- <answer.json | ->`: acts as the user's wallet on a transaction answer against
 * `npm run dev`'s chain. Signs it with an account of the dev mnemonic, sends it, prints the hash
 * and the receipt, then the intent's status as the service tells it until the follower settles
 * it. Exits 0 when the transaction succeeded (and its intent, when known, is confirmed), 1
 * otherwise, 2 on bad usage. See docs/dev-loop.md, "Signing an answer".
 */
import { readFileSync } from 'node:fs';
import { readAnswer, UsageError } from './sign/answer';
import { parseOptions, USAGE } from './sign/options';
import { devAccount, settledIntent, signAndSendAnswer } from './sign/send';

async function main(args: readonly string[]): Promise<number> {
  let options;
  let input;
  let signer;
  try {
    options = parseOptions(args, process.env);
    input = readAnswer(readFileSync(options.source === '-' ? 0 : options.source, 'utf8'));
    signer = devAccount(options.account);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof Error && 'code' in error)) throw error;
    console.error(`sign: ${error.message}\n${USAGE}`);
    return 2;
  }
  const intent = options.intent ?? input.intent;
  const { account, index } = signer;
  console.log(
    `sign: dev account ${index} ${account.address}, chain ${input.answer.chainId} at ${options.rpcUrl}`,
  );
  const { hash, receipt } = await signAndSendAnswer(input.answer, account, options.rpcUrl);
  console.log(`sign: hash ${hash}`);
  const mined = await receipt;
  console.log(
    `sign: receipt ${mined.status} in block ${mined.blockNumber}, gas used ${mined.gasUsed}`,
  );
  if (intent === undefined) {
    console.log(
      'sign: no intent to read (pass curl -i output, which holds X-Action-Intent, or --intent)',
    );
    return mined.status === 'success' ? 0 : 1;
  }
  const view = await settledIntent(intent, options.serviceUrl, options.waitMs, (seen, message) =>
    console.log(`sign: intent ${intent} ${seen.status}: ${message}`),
  );
  if (view.hash !== undefined && view.hash !== hash)
    console.log(`sign: the intent was settled by another transaction, ${view.hash}`);
  return mined.status === 'success' && view.status === 'confirmed' ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`sign: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.exitCode = 1;
  },
);
