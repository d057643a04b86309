import type { ModeTemplates, TemplateInput } from './templates';

/** A data-mode action: a required text answered with its length, and the acting user if any. */
export function dataTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import { ActionParam, defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export class ${pascal}Params {
  @ActionParam({
    type: 'string',
    label: 'Text',
    required: true,
    maxLength: 100,
    placeholder: 'Hello there',
    description: 'Any text: the action answers it with its length',
  })
  text!: string;
}

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Answers the text it is sent with its length',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  miniApp: ${miniAppConstant},
  params: ${pascal}Params,
  responseType: 'data',
  samples: [{ params: { text: 'Hello there' } }],
});
`,
    service: `import { Injectable } from '@nestjs/common';
import type { ActionResult, RequestContext } from '../../kit';
import type { ${pascal}Params } from './${kebab}.action';

/** What the action answers in \`data\`. */
export interface ${pascal}Answer {
  text: string;
  /** In characters as a reader counts them (code points), not UTF-16 units. */
  length: number;
  /** The acting user, when the request names one. */
  userAddress?: string;
}

@Injectable()
export class ${pascal}Service {
  run({ text }: ${pascal}Params, { userAddress }: RequestContext): ActionResult<${pascal}Answer> {
    const length = [...text].length;
    return {
      data: { text, length, userAddress },
      message: \`Received "\${text}" (\${length} characters)\`,
    };
  }
}
`,
    serviceSpec: `import { ${pascal}Service } from './${kebab}.service';

describe('${pascal}Service', () => {
  const service = new ${pascal}Service();

  it('answers the text with its length in characters, not UTF-16 units', () => {
    expect(service.run({ text: 'caf\\u00e9 \\u{1F44B}' }, { requestId: 'r' })).toEqual({
      data: { text: 'caf\\u00e9 \\u{1F44B}', length: 6 },
      message: 'Received "caf\\u00e9 \\u{1F44B}" (6 characters)',
    });
  });

  it('names the acting user when the request does', () => {
    const userAddress = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const answer = service.run({ text: 'hi' }, { requestId: 'r', userAddress });
    expect(answer.data?.userAddress).toBe(userAddress);
  });
});
`,
    returns: {
      type: `ActionResult<${pascal}Answer>`,
      kitImport: 'type ActionResult',
      serviceImport: `type ${pascal}Answer, `,
    },
    e2eImports: '',
    e2eTests: `
  it('answers the text it was sent, with its length and the acting user', async () => {
    const user = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const { status, body } = await postJson(
      app,
      PATH,
      { params: { text: 'Hello there' } },
      { 'x-user-address': user },
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      data: { text: 'Hello there', length: 11, userAddress: user },
    });
  });

  it('refuses a request without the text, naming it', async () => {
    const { status, body } = await postJson(app, PATH, { params: {} });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, data: { invalidParams: ['text'] } });
  });
`,
  };
}
