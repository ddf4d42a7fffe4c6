import ArgumentParser
import Foundation
import UserNotifications

extension NotifyCommand {
    /// `notify push PAYLOAD`: an APNs-style payload shown as a remote notification through
    /// `UNUserNotificationCenter`, as an app receiving it from Apple's push service would.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.push.commandName,
            abstract: "Show an APNs-style push payload (the JSON an Apple push notification carries).",
            discussion: """
                Reads {"aps": {"alert": {"title", "subtitle", "body"}, "badge", "sound", \
                "category", "thread-id", "mutable-content", ...}, ...}; keys outside "aps" \
                become the notification's userInfo. A payload with only content-available \
                shows nothing. --collapse-id names the request as APNs's apns-collapse-id \
                does: a later notify push with the same id and app name updates the \
                notification in place while the server that showed it still runs (the \
                center's state, in $XDG_STATE_HOME/APP_NAME/).

                APP_NAME also names that folder, so it is an application id: dot-separated \
                names of ASCII letters, digits, _ and -.

                Exit status: 0 when shown (or silent), 1 when the payload cannot be read, the \
                notification cannot be shown, or its state cannot be saved.
                """,
            helpNames: [.customShort("?"), .long])

        @Option(name: [.short, .customLong("app-name")], help: ArgumentHelp("The application it is shown for (default: notify).", valueName: "APP_NAME"))
        var appName: String?

        @Option(name: .customLong("collapse-id"),
                help: ArgumentHelp("The request's identifier (APNs's apns-collapse-id); a random one by default.", valueName: "ID"))
        var collapseID: String?

        @Argument(help: ArgumentHelp("The payload file, or - to read standard input.", valueName: "PAYLOAD"))
        var payload: String

        mutating func run() async throws {
            let data: Data
            do {
                data = payload == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: payload))
            } catch {
                Terminal.error("Cannot read the payload \(payload): \(error.localizedDescription)\n")
                throw ExitCode(1)
            }
            let remote: RemoteNotificationPayload
            do {
                remote = try RemoteNotificationPayload(json: data)
            } catch {
                Terminal.error("Cannot read the payload \(payload): \(error)\n")
                throw ExitCode(1)
            }
            if remote.isSilent {
                Terminal.error("The payload is silent (content-available only): nothing to show.\n")
                return
            }
            let name = appName ?? "notify"
            do {
                try ApplicationIdentity.validate(id: name)
            } catch {
                Terminal.error("notify push: --app-name: \(error.localizedDescription)\n")
                throw ExitCode(1)
            }
            // Persistent: the delivered list, kept across runs, is what lets a collapse id update.
            UNUserNotificationCenter.configure(identity: ApplicationIdentity(id: name, displayName: name), bus: .session, persistent: true)
            do {
                let center = UNUserNotificationCenter.current()
                try await center.deliverRemoteNotification(remote, collapseIdentifier: collapseID)
            } catch {
                Terminal.error("Cannot show the payload: \(error)\n")
                throw ExitCode(1)
            }
            do {
                try await UNUserNotificationCenter.current().writeStateNow()
            } catch {
                Terminal.error("Shown, but its state was not saved (a later --collapse-id cannot update it): \(error.localizedDescription)\n")
                throw ExitCode(1)
            }
        }
    }
}
