import ts from 'typescript';
import type { ClientAction } from './client-source';

/**
 * The `data` each data-mode handler answers, written out as a self-contained TypeScript type
 * (read with the compiler from the handler's return type, `ActionResult<T>`), so the generated
 * client needs none of the server's code to compile. Values are as JSON carries them: the kit's
 * JSON-safe rule makes a bigint and a Date text.
 */
export function answerTypes(
  actions: readonly ClientAction[],
  tsconfig: string,
): Map<string, string> {
  const { config } = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path)) as {
    config: unknown;
  };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, tsconfig.replace(/[^/\\]+$/, ''));
  const files = [...new Set(actions.map((a) => a.controller.file))];
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const types = new Map<string, string>();
  for (const { declaration, controller } of actions) {
    if (declaration.responseType !== 'data') continue;
    const source = program.getSourceFile(controller.file);
    const method = source && findMethod(source, controller.name, controller.method);
    const signature = method && checker.getSignatureFromDeclaration(method);
    if (!signature) {
      types.set(declaration.path, 'unknown');
      continue;
    }
    const returned = checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
    const data = returned && checker.getPropertyOfType(returned, 'data');
    const dataType = data && checker.getTypeOfSymbol(data);
    types.set(
      declaration.path,
      dataType ? write(checker, checker.getNonNullableType(dataType), 0) : 'unknown',
    );
  }
  return types;
}

function findMethod(
  source: ts.SourceFile,
  className: string,
  methodName: string,
): ts.MethodDeclaration | undefined {
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || statement.name?.text !== className) continue;
    return statement.members.find(
      (m): m is ts.MethodDeclaration =>
        ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === methodName,
    );
  }
  return undefined;
}

const MAX_DEPTH = 8;

/** One type as JSON text carries it. */
function write(checker: ts.TypeChecker, type: ts.Type, depth: number): string {
  if (depth > MAX_DEPTH) return 'unknown';
  const { flags } = type;
  if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
  if (flags & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return 'string';
  if (
    flags &
    (ts.TypeFlags.StringLike |
      ts.TypeFlags.NumberLike |
      ts.TypeFlags.BooleanLike |
      ts.TypeFlags.Null |
      ts.TypeFlags.Undefined)
  ) {
    return checker.typeToString(type);
  }
  if (type.isUnion()) {
    const parts = [...new Set(type.types.map((t) => write(checker, t, depth + 1)))];
    return parts.join(' | ');
  }
  if (type.getSymbol()?.getName() === 'Date') return 'string';
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    return element ? `(${write(checker, element, depth + 1)})[]` : 'unknown[]';
  }
  if (flags & ts.TypeFlags.Object) {
    const fields = checker.getPropertiesOfType(type).map((property) => {
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      // `null` stays (JSON carries it); an optional field's `undefined` is its `?`.
      const value = checker.getTypeOfSymbol(property);
      const parts = value.isUnion()
        ? value.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined))
        : [value];
      const text = [...new Set(parts.map((t) => write(checker, t, depth + 1)))].join(' | ');
      return `${JSON.stringify(property.getName())}${optional ? '?' : ''}: ${text};`;
    });
    const index = checker
      .getIndexInfosOfType(type)
      .map((info) => `[key: string]: ${write(checker, info.type, depth + 1)};`);
    return `{ ${[...fields, ...index].join(' ')} }`;
  }
  return 'unknown';
}
