// The book's pandoc runs on pandoc 3 (the official pandoc.wasm of the npm
// package pandoc-wasm), to check that the Lua filters use only what pandoc 3
// keeps.  Called by tools/pandoc3/pandoc (the stand-in for pandoc that
// `make check-pandoc3` puts first on PATH) with the arguments the book's
// tools give pandoc 2.17 (a subset of its command line):
//     node run.mjs PANDOC_WASM_DIR OUTDIR ARGS... < INPUT
// OUTDIR receives stdout.txt and the files the filter wrote (book.lua writes
// the HTML pages itself, to the data's "dest").
import {readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync} from "node:fs"
import {basename, dirname, join} from "node:path"

const [wasmdir, outdir, ...args] = process.argv.slice(2)
const {convert} = await import(join(wasmdir, "src", "index.node.js"))
const opts = {metadata: {}}
const files = {}
for (let i = 0; i < args.length; i++) {
  const a = args[i], next = () => args[++i]
  if (a === "-f") opts.from = next()
  else if (a === "-t") opts.to = next()
  else if (a === "-s") opts.standalone = true
  else if (a === "-o") opts.discard = next() === "/dev/null"   // the filter's own files only
  else if (a.startsWith("--slide-level=")) opts["slide-level"] = Number(a.split("=")[1])
  else if (a.startsWith("--highlight-style=")) opts["highlight-style"] = a.split("=")[1]
  else if (a === "--template") opts.template = addFile(next())
  else if (a === "--lua-filter") {
    const f = next()
    for (const g of readdirSync(dirname(f)))   // nwname.lua and the templates beside it
      if (/\.(lua|html5|latex)$/.test(g)) files[g] = readFileSync(join(dirname(f), g), "utf8")
    opts.filters = [basename(f)]
  } else if (a === "-M") {
    const [k, v] = next().split(/=(.*)/s)
    opts.metadata[k] = existsSync(v) ? addData(v) : v
  } else throw new Error("run.mjs: an argument it does not know: " + a)
}
function addFile(p) { files[basename(p)] = readFileSync(p, "utf8"); return basename(p) }
function addData(p) {   // a data file: its output directory and the book's files it names, in the sandbox
  files[basename(p)] = readFileSync(p, "utf8")
    .replace(/\["dest"\]="[^"]*"/, '["dest"]="."')
    .replace(/"(\/[^"]+)"/g, (m, f) => f.startsWith(process.cwd() + "/") && existsSync(f) ? '"' + addFile(f) + '"' : m)
  return basename(p)
}
const input = readFileSync(0, "utf8")
const discard = opts.discard
delete opts.discard
const r = await convert(opts, input, files)
mkdirSync(outdir, {recursive: true})
writeFileSync(join(outdir, "stdout.txt"), discard ? "" : r.stdout || "")
writeFileSync(join(outdir, "stderr.txt"), r.stderr || "")
for (const [name, blob] of Object.entries(r.mediaFiles || {}))
  writeFileSync(join(outdir, name.replace(/^\.\//, "")), Buffer.from(await blob.arrayBuffer()))
