// Starts `rulecraft lsp` for .rules files: errors as you type, hover, go to definition,
// completion, outline and formatting. The command comes from the setting
// `rulecraft.server.command` (default: `rulecraft`, as installed by `pip install 'rulecraft[lsp]'`).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulecraft");
  const command = config.get("server.command", "rulecraft");
  const args = config.get("server.args", ["lsp"]);
  client = new LanguageClient(
    "rulecraft",
    "rulecraft",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "rulecraft" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
