// Resolution oracle: the TypeScript compiler's own ts.resolveModuleName for a list of imports.
//
//   node resolve-oracle.cjs ROOT < [{"file": "src/a.ts", "specifier": "./b"}, ...]
//
// For each import it finds the governing tsconfig/jsconfig (ts.findConfigFile from the
// importing file's folder), parses it with its extends chain, and resolves the specifier with
// those options (moduleResolution "bundler" and allowJs when the config sets none, as filid
// assumes). Prints [{"file", "specifier", "resolved", "external", "failed"}]: `resolved` is
// the root-relative real path of the resolved file (null when none), `external` true when it
// lies outside ROOT or under node_modules of an outside package, and `failed` the lookup
// locations TypeScript tried (for unresolved imports).
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const root = fs.realpathSync(process.argv[2]);
const imports = JSON.parse(fs.readFileSync(0, "utf8"));
const configs = new Map();

function optionsFor(file) {
  const dir = path.dirname(path.join(root, file));
  let found = ts.findConfigFile(dir, ts.sys.fileExists, "tsconfig.json");
  const js = ts.findConfigFile(dir, ts.sys.fileExists, "jsconfig.json");
  if (js && (!found || path.dirname(js).length > path.dirname(found).length)) found = js;
  if (found && !found.startsWith(root + path.sep)) found = undefined;
  const key = found || "";
  if (!configs.has(key)) {
    let options = {};
    if (found) {
      const parsed = ts.getParsedCommandLineOfConfigFile(found, {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      });
      if (parsed) options = parsed.options;
    }
    if (options.moduleResolution === undefined) {
      options.moduleResolution = ts.ModuleResolutionKind.Bundler;
      if (options.module === undefined) options.module = ts.ModuleKind.ESNext;
    }
    options.allowJs = true;
    options.resolveJsonModule = true;
    configs.set(key, options);
  }
  return configs.get(key);
}

// A failed lookup under node_modules/<pkg> names the linked package's real folder.
function realLocation(location) {
  let head = location;
  const rest = [];
  while (head !== path.dirname(head) && !fs.existsSync(head)) {
    rest.unshift(path.basename(head));
    head = path.dirname(head);
  }
  const real = path.join(fs.existsSync(head) ? fs.realpathSync(head) : head, ...rest);
  return path.relative(root, real).split(path.sep).join("/");
}

const out = [];
for (const item of imports) {
  const absolute = path.join(root, item.file);
  const result = ts.resolveModuleName(item.specifier, absolute, optionsFor(item.file), ts.sys);
  const resolved = result.resolvedModule && result.resolvedModule.resolvedFileName;
  let rel = null;
  let external = false;
  if (resolved) {
    const real = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
    rel = path.relative(root, real).split(path.sep).join("/");
    external = rel.startsWith("..") || rel.split("/").includes("node_modules");
  }
  out.push({
    file: item.file,
    specifier: item.specifier,
    resolved: external ? null : rel,
    external,
    failed: resolved ? [] : (result.failedLookupLocations || []).map(realLocation),
  });
}
process.stdout.write(JSON.stringify(out));
