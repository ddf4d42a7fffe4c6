import ArgumentParser
import Foundation
import NotificationAgent

extension NotifyCommand {
    /// `notify app-files`: writes the desktop entry and D-Bus service file through which a
    /// click on a notification relaunches an app that has exited.
    struct AppFiles: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.appFiles.commandName,
            abstract: "Write the desktop entry (and D-Bus service file) an app needs to be relaunched from a notification.",
            discussion: """
                Writes ID.desktop (Type=Application, Name, Exec, Icon, \
                X-GNOME-UsesNotifications=true) into $XDG_DATA_HOME/applications. With \
                --dbus-activatable the entry says DBusActivatable=true and ID.service (Name=ID, \
                Exec=PATH ARG...) goes into $XDG_DATA_HOME/dbus-1/services: the bus then starts the \
                app when a click on one of its notifications calls ActivateAction on its app \
                id, and the app's center, serving org.freedesktop.Application, hands the click \
                to its delegate. Without it the agent starts the entry's Exec. Each --arg adds \
                one argument after PATH, written in both files with their own quoting so that \
                the program gets it as given (a % stays a percent sign, not a field code). \
                --no-display adds NoDisplay=true, which keeps the app out of the menus. \
                --output-dir DIR writes under DIR instead. A file that exists with other \
                content is left alone unless --force is given. An app started so gets the \
                environment of the session bus (or of the agent, which the bus started), not \
                that of the shell it was first run from.
                """,
            helpNames: [.customShort("?"), .long])

        @Option(help: "The app id (reverse-DNS, as org.example.App), which names the files.")
        var id: String

        @Option(help: "The app's program: an absolute path to an executable file, without \"=\".")
        var exec: String

        @Option(
            name: .customLong("arg"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("An argument the program is started with, after PATH (repeat for more).", valueName: "ARG"))
        var arguments: [String] = []

        @Option(help: "The name shown for the app (default: the id).")
        var name: String?

        @Option(help: "An icon name from the icon theme, or an absolute path.")
        var icon: String?

        @Flag(help: "Started by D-Bus activation: DBusActivatable=true and the service file.")
        var dbusActivatable = false

        @Flag(help: "Keep the app out of the menus: NoDisplay=true.")
        var noDisplay = false

        @Option(help: "Write under DIR/applications (and DIR/dbus-1/services).")
        var outputDir: String?

        @Flag(help: "Replace files that exist with other content.")
        var force = false

        func run() throws {
            do {
                let files = try ApplicationFiles(
                    id: id, program: exec, arguments: arguments, name: name, icon: icon, isDBusActivatable: dbusActivatable,
                    noDisplay: noDisplay)
                guard let dataHome = ApplicationFiles.dataHome(outputDirectory: outputDir, environment: ProcessInfo.processInfo.environment) else {
                    Terminal.error("notify app-files: neither XDG_DATA_HOME nor HOME is an absolute path; use --output-dir\n")
                    throw ExitCode(1)
                }
                for (path, written) in try files.write(under: dataHome, force: force) {
                    Terminal.out("\(written ? "wrote" : "unchanged") \(path)\n")
                }
            } catch let error as ApplicationFilesError {
                Terminal.error("notify app-files: \(error)\n")
                throw ExitCode(1)
            }
        }
    }
}
