// A minimal client for `cudalint lsp`: it starts the server on stdio for
// CUDA files and passes the cudalint.* settings as initializationOptions
// and on every change (workspace/didChangeConfiguration).
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function settings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration("cudalint");
  return {
    configPath: c.get<string>("configPath", ""),
    params: c.get<Record<string, unknown>>("params", {}),
    blocks: c.get<Record<string, string>>("blocks", {}),
    defines: c.get<Record<string, string>>("defines", {}),
    severity: c.get<string>("severity", ""),
    run: c.get<string>("run", "onType"),
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
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
  client = new LanguageClient("cudalint", "cudalint", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("cudalint") && client) {
        void client.sendNotification("workspace/didChangeConfiguration", { settings: { cudalint: settings() } });
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
