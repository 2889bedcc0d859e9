// A minimal client for `cudalint lsp`: it starts the server on stdio for
// CUDA files, passes the cudalint.* settings as initializationOptions and
// on every change (workspace/didChangeConfiguration), and restarts the
// server on the command "cudalint: Restart the language server" or when
// the binary (cudalint.path) or its log file changes.
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

// settings are what the server reads (lsp/settings.go), under the
// names it reads them by. includeDirs relative to the workspace folder
// are made absolute: the server reads them as -I does, from its working
// folder.
function settings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration("cudalint");
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const includeDirs = c
    .get<string[]>("includeDirs", [])
    .map((d) => (root && !path.isAbsolute(d) ? path.join(root, d) : d));
  return {
    configPath: c.get<string>("configPath", ""),
    params: c.get<Record<string, unknown>>("params", {}),
    blocks: c.get<Record<string, string>>("blocks", {}),
    defines: c.get<Record<string, string>>("defines", {}),
    includeDirs,
    severity: c.get<string>("severity", ""),
    run: c.get<string>("run", "onType"),
  };
}

function newClient(): LanguageClient {
  const c = vscode.workspace.getConfiguration("cudalint");
  const args = ["lsp"];
  const log = c.get<string>("logFile", "");
  if (log) {
    args.push("--log", log);
  }
  const serverOptions: ServerOptions = {
    command: c.get<string>("path", "cudalint"),
    args,
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cuda-cpp" },
      { scheme: "file", pattern: "**/*.{cu,cuh}" },
    ],
    initializationOptions: settings(),
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.cu,*.cuh,*.h,*.hpp,.cudalint.yaml}"),
    },
  };
  return new LanguageClient("cudalint", "cudalint", serverOptions, clientOptions);
}

// restart stops the server, if one runs, and starts a new one with the
// settings as they are now.
async function restart(): Promise<void> {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop();
    old.outputChannel.dispose();
  }
  client = newClient();
  await client.start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("cudalint.restart", restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("cudalint.path") || e.affectsConfiguration("cudalint.logFile")) {
        void restart();
      } else if (e.affectsConfiguration("cudalint") && client) {
        void client.sendNotification("workspace/didChangeConfiguration", { settings: { cudalint: settings() } });
      }
    }),
  );
  await restart();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
