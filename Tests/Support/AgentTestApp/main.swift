// agent-test-app --app-id ID --record FILE [--record-requests] [--engine agent|in-process|gnome|portal]
//                [--serve-application] [--service-extension TITLE] [--post IDENTIFIER]
//                [--post-location IDENTIFIER] [--register-push DISTRIBUTOR] [--wait SECONDS] [--exit-after-response]
//
// An app for the agent's tests, run on the bus of DBUS_SESSION_BUS_ADDRESS. Its center's
// delegate appends one line per response to FILE, `IDENTIFIER ACTION`, then asks the center
// for its pending requests, so that the acknowledgement of the response has reached the
// agent before the line is counted. With --record-requests the line also carries the
// request's trigger (`push` for a UNPushNotificationTrigger, else `other`) and its title:
// `IDENTIFIER ACTION push TITLE`. With --service-extension its center has a service extension
// that retitles each mutable push TITLE. It prints `engine agent`, `engine gnome`, `engine portal`
// or `engine in-process` once the center has chosen (the GNOME and portal engines' tests use
// it too). With --serve-application its center serves org.freedesktop.Application
// on the app id (the way a D-Bus activatable app is launched for a response), and it prints
// `serving`, or `not serving` and the error.
//
// With --post it registers the category `choice` (actions `yes` and `no`), posts IDENTIFIER
// in it, writes the state a save may still wait to write (as a command that exits at once
// does), prints `posted`, and exits. With --post-location it does the same with a request
// titled IDENTIFIER whose UNLocationNotificationTrigger fires once on entering 500 m around
// 48.8566 N 2.3522 E (Paris); a refusal prints `failed` and the error. With --register-push
// it registers for remote notifications with DISTRIBUTOR, prints
// `registered ENDPOINT P256DH AUTH`, and exits.
// Otherwise it stays for SECONDS (default 5), or exits after its first response.
import CoreLocation
import Foundation
import UserNotifications

/// The value after `flag` on the command line.
func option(_ flag: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// One line on standard output, at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Records each response, then lets the app exit.
final class Recorder: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let file: String
    let received: AsyncStream<Void>.Continuation

    let recordsRequests: Bool

    init(file: String, recordsRequests: Bool, received: AsyncStream<Void>.Continuation) {
        self.file = file
        self.recordsRequests = recordsRequests
        self.received = received
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        _ = await center.pendingNotificationRequests()
        let request = response.notification.request
        var line = "\(request.identifier) \(response.actionIdentifier)"
        if recordsRequests {
            line += " \(request.trigger is UNPushNotificationTrigger ? "push" : "other") \(request.content.title)"
        }
        line += "\n"
        if let handle = FileHandle(forWritingAtPath: file) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        } else {
            _ = FileManager.default.createFile(atPath: file, contents: Data(line.utf8))
        }
        received.yield()
    }
}

/// Retitles each mutable push.
final class Retitling: UNNotificationServiceExtension {
    let title: String

    nonisolated init(title: String) {
        self.title = title
        super.init()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        content.title = title
        contentHandler(content)
    }
}

/// Registers the category `choice` and posts `identifier` in it.
func post(_ identifier: String, on center: UNUserNotificationCenter) async throws {
    let actions = [UNNotificationAction(identifier: "yes", title: "Yes"), UNNotificationAction(identifier: "no", title: "No")]
    center.setNotificationCategories([UNNotificationCategory(identifier: "choice", actions: actions, intentIdentifiers: [])])
    let content = UNMutableNotificationContent()
    content.title = "Agent test"
    content.body = "Choose"
    content.categoryIdentifier = "choice"
    try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
}

/// Posts `identifier`, fired once on entering 500 m around Paris.
func postLocation(_ identifier: String, on center: UNUserNotificationCenter) async throws {
    let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522), radius: 500, identifier: identifier)
    region.notifyOnExit = false
    let content = UNMutableNotificationContent()
    content.title = identifier
    content.body = "Arrived"
    try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: UNLocationNotificationTrigger(region: region, repeats: false)))
}

guard let appID = option("--app-id"), let file = option("--record") else {
    FileHandle.standardError.write(Data("usage: agent-test-app --app-id ID --record FILE [--engine agent|in-process|gnome|portal] [--serve-application] [--post ID] [--post-location ID] [--wait S]\n".utf8))
    exit(2)
}
let engine: NotificationEngineKind? = switch option("--engine") {
case "agent": .agent
case "in-process": .inProcess
case "gnome": .gnome
case "portal": .portal
default: nil
}
UNUserNotificationCenter.configure(identity: ApplicationIdentity(id: appID, displayName: "Agent Test App"), engine: engine)
let center = UNUserNotificationCenter.current()
let (responses, received) = AsyncStream.makeStream(of: Void.self)
let recorder = Recorder(file: file, recordsRequests: CommandLine.arguments.contains("--record-requests"), received: received)
center.delegate = recorder
if let title = option("--service-extension") {
    center.setServiceExtension(Retitling(title: title))
}
let chosen: String = switch await center.engineKind {
case .agent: "agent"
case .gnome: "gnome"
case .portal: "portal"
default: "in-process"
}
say("engine \(chosen)")
if CommandLine.arguments.contains("--serve-application") {
    do {
        try await center.serveApplicationInterface()
        say("serving")
    } catch {
        say("not serving \(error)")
        exit(1)
    }
}

if let identifier = option("--post") ?? option("--post-location") {
    do {
        if option("--post") != nil {
            try await post(identifier, on: center)
        } else {
            try await postLocation(identifier, on: center)
        }
        try await center.writeStateNow()
        say("posted")
        exit(0)
    } catch {
        say("failed \(error)")
        exit(1)
    }
}

if let distributor = option("--register-push") {
    do {
        let registration = try await center.registerForRemoteNotifications(distributor: distributor)
        say("registered \(registration.endpoint.absoluteString) \(registration.p256dh) \(registration.auth)")
        exit(0)
    } catch {
        say("failed \(error)")
        exit(1)
    }
}

let seconds = Double(option("--wait") ?? "5") ?? 5
let timeout = Task {
    try await Task.sleep(for: .seconds(seconds))
    received.finish()
}
for await _ in responses where CommandLine.arguments.contains("--exit-after-response") { break }
timeout.cancel()
say("done")
withExtendedLifetime(recorder) {}
