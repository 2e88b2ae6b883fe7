import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` into the target before every build: the version in the package's
/// VERSION file and the commit it is built from (`scripts/build-info.sh`: `git describe`, or a
/// note that the source is not a git checkout). The file changes only when they do.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let out = context.pluginWorkDirectoryURL.appending(path: "generated")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Build info for \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [package.appending(path: "scripts/build-info.sh").path, package.path, out.appending(path: "BuildInfo.swift").path],
                outputFilesDirectory: out)
        ]
    }
}
