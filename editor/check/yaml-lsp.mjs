// Drives yaml-language-server over stdio as an editor would, with the workspace's
// `yaml.schemas` (.vscode/settings.json), and prints each file's diagnostics as
// `path:line:col: message`. Exit 1 when any file has one.
//   node editor/check/yaml-lsp.mjs SERVER_JS FILE...
// SERVER_JS: node_modules/yaml-language-server/bin/yaml-language-server
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [server, ...files] = process.argv.slice(2);
if (!server || files.length === 0) {
  console.error("usage: node editor/check/yaml-lsp.mjs SERVER_JS FILE...");
  process.exit(2);
}
const root = process.cwd();
// settings.json is JSON with comment lines.
const settingsText = readFileSync(resolve(root, ".vscode/settings.json"), "utf8")
  .split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
const schemas = {};
for (const [schema, globs] of Object.entries(JSON.parse(settingsText)["yaml.schemas"])) {
  schemas[pathToFileURL(resolve(root, schema)).href] = globs;
}
const yaml = { validate: true, schemas, schemaStore: { enable: false } };

const child = spawn("node", [server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
let buffer = Buffer.alloc(0);
let nextId = 1;
const waiting = new Map();
const diagnostics = new Map();
const send = (msg) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
  child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  child.stdin.write(body);
};
const request = (method, params) =>
  new Promise((ok) => {
    const id = nextId++;
    waiting.set(id, ok);
    send({ id, method, params });
  });
child.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const msg = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    if (msg.id !== undefined && msg.method) {
      // The server asks for its settings (workspace/configuration): one answer per item.
      const answer = (msg.params?.items ?? []).map((i) => (i.section === "yaml" ? yaml : null));
      send({ id: msg.id, result: msg.method === "workspace/configuration" ? answer : null });
    } else if (msg.id !== undefined) {
      waiting.get(msg.id)?.(msg.result);
    } else if (msg.method === "textDocument/publishDiagnostics") {
      diagnostics.set(msg.params.uri, msg.params.diagnostics);
    }
  }
});

await request("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(root).href,
  workspaceFolders: [{ uri: pathToFileURL(root).href, name: "riffle" }],
  capabilities: { workspace: { configuration: true } },
});
send({ method: "initialized", params: {} });
send({ method: "workspace/didChangeConfiguration", params: { settings: { yaml } } });
const uris = files.map((f) => pathToFileURL(resolve(root, f)).href);
files.forEach((f, i) => {
  send({
    method: "textDocument/didOpen",
    params: { textDocument: { uri: uris[i], languageId: "yaml", version: 1, text: readFileSync(f, "utf8") } },
  });
});
// Diagnostics come as notifications: wait until every file has had its own, settled.
const deadline = Date.now() + 600000;
let lastCount = -1;
let stableSince = Date.now();
while (Date.now() < deadline) {
  await new Promise((ok) => setTimeout(ok, 250));
  const count = uris.filter((u) => diagnostics.has(u)).length;
  if (count !== lastCount) {
    lastCount = count;
    stableSince = Date.now();
  } else if (count === uris.length && Date.now() - stableSince > 3000) {
    break;
  }
}
let problems = 0;
files.forEach((f, i) => {
  const list = diagnostics.get(uris[i]);
  if (list === undefined) {
    console.log(`${f}: no diagnostics came back from the server`);
    problems++;
    return;
  }
  for (const d of list) {
    problems++;
    console.log(`${f}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
  }
});
await request("shutdown", null);
send({ method: "exit" });
process.exit(problems > 0 ? 1 : 0);
