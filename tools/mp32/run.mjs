// Runs a MicroPython script on the 32-bit WebAssembly port (4-byte pointers,
// as on an ESP32) for the heap benchmark (host_tools/bench/heap32.py).
//
//   node run.mjs --heapsize BYTES --dir HOSTDIR --script FILE.py [--out NAME]... [--romfs IMAGE]
//                [--variant settrace]
//
// HOSTDIR is copied into the port's in-memory filesystem at /bench (the
// script starts there). The script runs once, then its step() is called
// until it returns a false value. Each call is a separate call from JS:
// this variant collects garbage only at that top level (its gc.collect()
// just asks for one), where no C stack holds roots, so at the start of a
// step() the heap holds exactly what is live, and at its end what is live
// plus everything the step allocated. micropython.mem_info() lines are
// taken here, not printed: the largest block ("max blk sz") and the heap's
// total size ("GC: total", which grows when an allocation does not fit)
// are kept and printed at the end as "MP32 maxblk BYTES" and
// "MP32 total BYTES". The files named by --out are copied back to HOSTDIR.
// globalThis.mp32_last_ms is the previous step() call's duration in ms.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

function args(argv) {
  const a = { out: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, "");
    if (k === "out") a.out.push(argv[i + 1]);
    else a[k] = argv[i + 1];
  }
  return a;
}

function copyIn(FS, host, dest) {
  FS.mkdir(dest);
  for (const name of fs.readdirSync(host)) {
    const h = path.join(host, name);
    const d = dest + "/" + name;
    if (fs.statSync(h).isDirectory()) copyIn(FS, h, d);
    else FS.writeFile(d, fs.readFileSync(h));
  }
}

const a = args(process.argv.slice(2));
let maxblk = 0;
let total = 0;
const out = (line) => {
  let m = /^GC: total: (\d+)/.exec(line);
  if (m) { total = Math.max(total, +m[1]); return; }
  m = /max blk sz: (\d+)/.exec(line);
  if (m) { maxblk = Math.max(maxblk, +m[1]); return; }
  if (/^stack: \d+ out of/.test(line)) return;
  process.stdout.write(line + "\n");
};
const opts = { heapsize: +a.heapsize, stdout: out, stderr: out, linebuffer: true };
if (a.variant) {   // another build in the package, e.g. "settrace" (sys.settrace, for the stack depth)
  const dir = path.dirname(new URL(import.meta.resolve("@micropython/micropython-webassembly-pyscript")).pathname);
  opts.url = path.join(dir, "micropython-" + a.variant + ".wasm");
}
if (a.romfs) opts.romfs = new Uint8Array(fs.readFileSync(a.romfs));   // mounted at /rom
const mp = await loadMicroPython(opts);
copyIn(mp.FS, a.dir, "/bench");
try {
  mp.runPython("import os\nos.chdir('/bench')\n" + fs.readFileSync(a.script, "utf8"));
  const step = mp.globals.get("step");
  // each call's duration, the collection at its end included, for the
  // script to read in its next call (import js; js.mp32_last_ms)
  globalThis.mp32_last_ms = 0;
  for (;;) {
    const t0 = performance.now();
    const more = step();
    globalThis.mp32_last_ms = performance.now() - t0;
    if (!more) break;
  }
} catch (e) {
  process.stdout.write("MP32 error " + String(e.message || e).trim().split("\n").slice(-1)[0] + "\n");
  process.exitCode = 1;
}
process.stdout.write("MP32 maxblk " + maxblk * 16 + "\nMP32 total " + total + "\n");
for (const name of a.out) {
  try { fs.writeFileSync(path.join(a.dir, name), mp.FS.readFile("/bench/" + name)); } catch (e) { /* not written */ }
}
