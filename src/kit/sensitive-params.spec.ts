import type { ActionDeclaration } from '../contract/action.types';
import { ActionParam } from './action-param.decorator';
import { defineMiniApp } from './mini-app';
import { isBodyOnly, isSenderDefault, loggableTarget } from './sensitive-params';

class Params {
  @ActionParam({ type: 'string', label: 'Code', sensitive: true })
  code?: string;

  @ActionParam({ type: 'string', label: 'Memo' })
  memo?: string;
}

const declaration: ActionDeclaration = {
  label: 'Note',
  path: '/api/note',
  chains: { source: 43113 },
  params: Params,
  miniApp: defineMiniApp({ id: 'note', title: 'Note', description: 'Note' }),
};

describe('sensitive parameters', () => {
  it('redacts their query values from a logged target, and only theirs', () => {
    expect(loggableTarget('/api/note?memo=hi&code=s3cret', declaration)).toBe(
      '/api/note?memo=hi&code=%5Bredacted%5D',
    );
    expect(loggableTarget('/api/note?memo=hi', declaration)).toBe('/api/note?memo=hi');
    expect(loggableTarget('/api/note?code=s3cret', undefined)).toBe('/api/note?code=s3cret');
  });

  it('reads sensitive and queryParam:false values from the body only', () => {
    expect(isBodyOnly({ type: 'string', label: 'A', sensitive: true })).toBe(true);
    expect(isBodyOnly({ type: 'string', label: 'A', queryParam: false })).toBe(true);
    expect(isBodyOnly({ type: 'string', label: 'A', queryParam: true })).toBe(false);
  });

  it("knows an address defaulting to 'sender', and nothing else", () => {
    expect(isSenderDefault({ type: 'address', label: 'A', value: 'sender' })).toBe(true);
    expect(isSenderDefault({ type: 'string', label: 'A', value: 'sender' })).toBe(false);
  });
});
