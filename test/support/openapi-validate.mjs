// Validates the OpenAPI document read from stdin against the official schema of its version and
// prints the result as JSON. A separate process: the validator ships ES modules only, and Jest
// runs CommonJS.
import { Validator } from '@seriousme/openapi-schema-validator';

let text = '';
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ ...result, version: validator.version }));
