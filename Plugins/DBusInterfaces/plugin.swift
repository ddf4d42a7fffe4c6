import Foundation
import PackagePlugin

/// Generates, for a target that applies it, the Swift declarations of the D-Bus interfaces
/// `dbus/targets.conf` assigns to the target (from the files in `dbus/`), with
/// dbus-interface-generator: per interface a `package enum <Name>Spec` with its name, its
/// `<interface>` element as served, and its methods' and signals' names and signatures.
@main
struct DBusInterfaces: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "dbus")
        let configuration = folder.appending(path: "targets.conf")
        let files = try Self.files(of: target.name, in: configuration).map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedDBusInterfaces.swift")
        return [
            .buildCommand(
                displayName: "Generating the D-Bus interfaces of \(target.name) from dbus/",
                executable: try context.tool(named: "dbus-interface-generator").url,
                arguments: ["--output", output.path] + files.map(\.path),
                inputFiles: [configuration] + files,
                outputFiles: [output])
        ]
    }

    /// The files `configuration` names for `target`: its lines are `Target: file.xml file.xml`,
    /// `#` starting a comment.
    static func files(of target: String, in configuration: URL) throws -> [String] {
        let text = try String(contentsOf: configuration, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard !content.allSatisfy(\.isWhitespace) else { continue }
            let parts = content.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                throw PluginError("\(configuration.path):\(number + 1): error: expected `Target: file.xml ...`")
            }
            guard parts[0].trimmingCharacters(in: .whitespaces) == target else { continue }
            let files = parts[1].split(whereSeparator: \.isWhitespace).map(String.init)
            if let bad = files.first(where: { $0.contains("/") || !$0.hasSuffix(".xml") }) {
                throw PluginError("\(configuration.path):\(number + 1): error: \(bad) is not the name of an .xml file in dbus/")
            }
            return files
        }
        throw PluginError("\(configuration.path):1: error: the target \(target) applies the DBusInterfaces plugin but has no line here")
    }
}

/// A problem with `dbus/targets.conf`, as the build prints it.
struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
