// Jest's transform for the ES-module packages of node_modules that Jest 29 cannot load: NestJS 12's
// (`"type": "module"`) and what they bring. Node 22.12+ require()s an ES module; Jest's own module
// system does not, so each file is compiled to CommonJS as it loads, by TypeScript's
// transpileModule (syntax only: no type checks, no tsconfig). CommonJS has no `import.meta`:
// its `url`, `dirname` and `filename` are the file's own; a module's own
// `const require = createRequire(import.meta.url)` is dropped, CommonJS's `require` being that
// already (and a parameter of the module's function, which a const may not redeclare).
// jest.config.js names the packages.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2023,
  esModuleInterop: true,
  allowJs: true,
};
const IMPORT_META =
  "({ url: require('node:url').pathToFileURL(__filename).href, dirname: __dirname, filename: __filename })";
const OWN_REQUIRE =
  /^\s*(?:const|let|var) require = (?:\w+\.)?createRequire\(import\.meta\.url\);?$/gm;
const OWN = readFileSync(__filename);

module.exports = {
  process(source, filename) {
    const commonJs = source.replace(OWN_REQUIRE, '').replace(/\bimport\.meta\b/g, IMPORT_META);
    const { outputText } = ts.transpileModule(commonJs, {
      fileName: filename,
      compilerOptions: COMPILER_OPTIONS,
      reportDiagnostics: false,
    });
    return { code: outputText };
  },
  getCacheKey(source, filename) {
    return createHash('sha1')
      .update(OWN)
      .update(ts.version)
      .update(filename)
      .update(source)
      .digest('hex');
  },
};
