// @ts-check
/**
 * A TypeDoc plugin for the API reference (typedoc.json): a parameter, return or property typed by
 * another package's type is shown by the name the source wrote (`PublicClient`), not expanded.
 * viem's clients and accounts are aliases of mapped types (`Prettify<…>`), which TypeScript
 * resolves away, so without this ChainRegistry's page carries viem's 80 client members twice
 * (1.8 MB), and the checks for undocumented names would blame our pages for viem's.
 */
import ts from 'typescript';
import { Converter, ReflectionType, UnknownType } from 'typedoc';

/** Fewer members than this is a small object type worth showing in place. */
const MIN_MEMBERS = 3;

/** @param {import('typedoc').DeclarationReflection} declaration */
function isForeign(declaration) {
  const members = declaration.children ?? [];
  return (
    members.length >= MIN_MEMBERS &&
    members.every((member) =>
      (member.sources ?? []).every((source) => source.fullFileName.includes('/node_modules/')),
    )
  );
}

/** The written type of a declaration or parameter, when it names one (`account: HDAccount`). */
function writtenName(/** @type {ts.Node | undefined} */ node) {
  const written =
    node && 'type' in node ? /** @type {ts.TypeNode | undefined} */ (node.type) : undefined;
  return written && ts.isTypeReferenceNode(written) ? written.getText() : undefined;
}

/** @param {import('typedoc').DeclarationReflection} declaration */
const membersKey = (declaration) =>
  (declaration.children ?? []).map((member) => member.name).join();

/** @param {import('typedoc').Application} app */
export function load(app) {
  /** Reflections and the name their source wrote; types are set after the creation events. */
  const written = new Map();
  /** @type {(context: import('typedoc').Context, reflection: import('typedoc').Reflection, node?: ts.Node) => void} */
  const remember = (context, reflection, node) => {
    // A property's event carries no node: its symbol's declaration holds the written type.
    const name = writtenName(
      node ?? context.getSymbolFromReflection(reflection)?.declarations?.[0],
    );
    if (name) written.set(reflection, name);
  };
  app.converter.on(Converter.EVENT_CREATE_PARAMETER, remember);
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, remember);
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, remember);

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    /** The same members seen under a written name elsewhere (a callback's `client: PublicClient`). */
    const known = new Map();
    for (const [reflection, name] of written) {
      const type = reflection.type;
      if (type instanceof ReflectionType && isForeign(type.declaration)) {
        known.set(membersKey(type.declaration), name);
      }
    }
    for (const reflection of Object.values(context.project.reflections)) {
      const holder = /** @type {{ type?: import('typedoc').SomeType }} */ (reflection);
      const type = holder.type;
      if (!(type instanceof ReflectionType) || !isForeign(type.declaration)) continue;
      const name = written.get(reflection) ?? known.get(membersKey(type.declaration));
      if (name === undefined) continue;
      context.project.removeReflection(type.declaration);
      holder.type = new UnknownType(name);
    }
  });
}
