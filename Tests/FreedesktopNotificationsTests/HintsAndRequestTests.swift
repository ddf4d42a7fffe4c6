import DBus
import Foundation
@testable import FreedesktopNotifications
import Testing
import UserNotificationsTesting

@Suite("Hints and Notify arguments")
struct HintsAndRequestTests {
    @Test("typed hints travel with the spec's exact signatures")
    func hintSignatures() throws {
        var hints = NotificationHints()
        hints.urgency = .critical
        hints.category = "im.received"
        hints.desktopEntry = "org.example.App"
        hints.imagePath = "file:///tmp/a.png"
        hints.soundFile = "/usr/share/sounds/a.oga"
        hints.soundName = "message-new-instant"
        hints.suppressSound = true
        hints.transient = true
        hints.resident = false
        hints.actionIcons = true
        hints.x = 10
        hints.y = -3
        hints.value = 42
        hints.replyPlaceholderText = "Reply…"
        hints.replySubmitButtonText = "Send"
        hints.image = try NotificationImage(width: 1, height: 1, rowStride: 3, hasAlpha: false, channels: 3, data: [1, 2, 3])
        let signatures = Dictionary(uniqueKeysWithValues: hints.raw.map { ($0.key, $0.value.type.signature) })
        #expect(signatures == [
            "urgency": "y", "category": "s", "desktop-entry": "s", "image-path": "s", "sound-file": "s",
            "sound-name": "s", "suppress-sound": "b", "transient": "b", "resident": "b", "action-icons": "b",
            "x": "i", "y": "i", "value": "i", "x-kde-reply-placeholder-text": "s",
            "x-kde-reply-submit-button-text": "s", "image-data": "(iiibiiay)",
        ])
        #expect(hints.encoded.type.signature == "a{sv}")
        #expect(hints.urgency == .critical && hints.x == 10 && hints.image?.data == [1, 2, 3])
    }

    @Test("hints are sent sorted by name, so equal hints give equal bytes")
    func hintOrder() throws {
        var first = NotificationHints()
        first.urgency = .low
        first.category = "a"
        var second = NotificationHints()
        second.category = "a"
        second.urgency = .low
        #expect(first.encoded == second.encoded)
        guard case .dictionary(_, _, let entries) = first.encoded else { Issue.record("not a dictionary"); return }
        #expect(entries.map { $0.key } == [.string("category"), .string("urgency")])
    }

    @Test("a NUL in a hint's string, however deep, is refused with the hint's name")
    func nulInHint() throws {
        var request = NotifyRequest(summary: "s")
        try request.hints.setVendorHint("x-nested", .variant(.array(element: .string, [.string("ok"), .string("a\u{0}b")])))
        #expect(throws: NotificationsError.invalidArgument(field: "hint x-nested", reason: "contains a NUL character")) {
            try request.validate()
        }
        try request.hints.setVendorHint("x-nested", .variant(.array(element: .string, [.string("ok")])))
        try request.validate()
    }

    @Test("a known hint with the wrong type is refused; vendor hints pass")
    func vendorHints() throws {
        var hints = NotificationHints()
        #expect(throws: NotificationsError.invalidArgument(field: "hint urgency", reason: "must be of type y, not i")) {
            try hints.setVendorHint("urgency", .int32(2))
        }
        try hints.setVendorHint("x-dunst-stack-tag", .string("volume"))
        #expect(hints[raw: "x-dunst-stack-tag"] == .string("volume"))
        // A typed reader ignores a received hint of the wrong type.
        let received = NotificationHints(raw: ["urgency": .uint32(2)])
        #expect(received.urgency == nil)
    }

    @Test("image data: 8 bits, 3 or 4 channels, exact length", arguments: [
        (2, 2, 6, false, 8, 3, 12, true), (2, 2, 8, true, 8, 4, 16, true), (2, 2, 8, false, 8, 3, 14, true),
        (2, 2, 6, false, 16, 3, 12, false), (2, 2, 6, true, 8, 3, 12, false), (2, 2, 5, false, 8, 3, 11, false),
        (2, 2, 6, false, 8, 3, 13, false), (0, 2, 6, false, 8, 3, 0, false), (2, 2, 6, false, 8, 2, 12, false),
    ])
    func imageRules(_ sample: (Int32, Int32, Int32, Bool, Int32, Int32, Int, Bool)) {
        let (width, height, stride, alpha, bits, channels, count, valid) = sample
        let image = try? NotificationImage(
            width: width, height: height, rowStride: stride, hasAlpha: alpha, bitsPerSample: bits,
            channels: channels, data: [UInt8](repeating: 7, count: count))
        #expect((image != nil) == valid)
    }

    @Test("image data length follows (h-1)*rowstride + w*channels for any size")
    func imageLengthProperty() throws {
        for _ in 0..<200 {
            let width = Int32.random(in: 1...64), height = Int32.random(in: 1...64)
            let alpha = Bool.random()
            let channels: Int32 = alpha ? 4 : 3
            let stride = width * channels + Int32.random(in: 0...7)
            let length = Int(height - 1) * Int(stride) + Int(width * channels)
            #expect(throws: Never.self) {
                try NotificationImage(width: width, height: height, rowStride: stride, hasAlpha: alpha, channels: channels, data: [UInt8](repeating: 0, count: length))
            }
            #expect(throws: NotificationsError.self) {
                try NotificationImage(width: width, height: height, rowStride: stride, hasAlpha: alpha, channels: channels, data: [UInt8](repeating: 0, count: length + 1))
            }
        }
    }

    @Test("a NUL in any field is refused with the field's name", arguments: ["app_name", "app_icon", "summary", "body", "action key", "action label", "hint category"])
    func nulFields(_ field: String) {
        var request = NotifyRequest(appName: "a", summary: "s", body: "b", actions: [NotificationAction(key: "k", label: "l")])
        let bad = "x\u{0}y"
        switch field {
        case "app_name": request.appName = bad
        case "app_icon": request.appIcon = bad
        case "summary": request.summary = bad
        case "body": request.body = bad
        case "action key": request.actions = [NotificationAction(key: bad, label: "l")]
        case "action label": request.actions = [NotificationAction(key: "k", label: bad)]
        default: request.hints.category = bad
        }
        #expect(throws: NotificationsError.invalidArgument(field: field, reason: "contains a NUL character")) {
            try request.validate()
        }
    }

    @Test("oversized fields are refused before sending: a 1 MB body, a 200 MB image")
    func sizeLimits() throws {
        let body = NotifyRequest(summary: "s", body: String(repeating: "x", count: 1_000_000))
        #expect(throws: NotificationsError.tooLarge(field: "body", size: 1_000_000, limit: 64 * 1024)) { try body.validate() }
        var image = NotifyRequest(summary: "s")
        let side: Int32 = 7_300
        image.hints.image = try NotificationImage(
            width: side, height: side, rowStride: side * 4, hasAlpha: true, channels: 4,
            data: [UInt8](repeating: 0, count: Int(side) * Int(side) * 4))
        #expect(throws: NotificationsError.tooLarge(field: "image-data", size: Int(side) * Int(side) * 4, limit: 16 * 1024 * 1024)) {
            try image.validate()
        }
    }

    @Test("duplicate or empty action keys are refused")
    func actionKeys() {
        let duplicate = NotifyRequest(summary: "s", actions: [NotificationAction(key: "a", label: "1"), NotificationAction(key: "a", label: "2")])
        #expect(throws: NotificationsError.self) { try duplicate.validate() }
        let empty = NotifyRequest(summary: "s", actions: [NotificationAction(key: "", label: "1")])
        #expect(throws: NotificationsError.invalidArgument(field: "action key", reason: "is empty")) { try empty.validate() }
    }

    @Test("Notify arguments round-trip through the server's parser")
    func argumentsRoundTrip() throws {
        var hints = NotificationHints()
        hints.urgency = .normal
        let request = NotifyRequest(
            appName: "App", replacesID: 7, appIcon: "dialog-information", summary: "Hi", body: "There",
            actions: [NotificationAction(key: "default", label: ""), NotificationAction(key: "ok", label: "OK")],
            hints: hints, expiry: .milliseconds(1500))
        let arguments = try request.arguments()
        #expect(arguments.map(\.type.signature).joined() == "susssasa{sv}i")
        #expect(try NotifyRequest(arguments: arguments) == request)
    }

    @Test("the embedded server serves exactly the interface element of dbus/")
    func introspectionFile() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/org.freedesktop.Notifications.xml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "<interface "))
        let end = try #require(text.range(of: "</interface>"))
        let lineStart = text[..<start.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let element = String(text[lineStart..<end.upperBound])

        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let connection = try await DBusConnection.connect(to: testBus.bus)
        let reply = try await connection.call(.methodCall(
            destination: NotificationsInterface.busName, path: NotificationsInterface.path,
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"))
        let served = try #require(reply.body.first?.stringValue)
        #expect(served.components(separatedBy: element + "\n").count == 2, "not served as written:\n\(served)")
        await connection.close()
        await server.stop()
        await testBus.stop()
    }

    @Test("the embedded server takes each method with the file's signature alone, and no other member")
    func routesTheFileSignatures() async throws {
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let connection = try await DBusConnection.connect(to: testBus.bus)
        func call(_ member: String, _ body: [DBusValue]) async throws -> [DBusValue] {
            try await connection.call(.methodCall(
                destination: NotificationsInterface.busName, path: NotificationsInterface.path, interface: NotificationsInterface.name,
                member: member, body: body)).body
        }
        #expect(NotificationsSpec.Method.allCases.map(\.rawValue) == ["Notify", "CloseNotification", "GetCapabilities", "GetServerInformation"])
        for method in NotificationsSpec.Method.allCases {
            do {
                _ = try await call(method.rawValue, [.int32(1)])
                Issue.record("\(method.rawValue)(i) was taken")
            } catch DBusError.remote(let name, let message) {
                #expect(name == "org.freedesktop.DBus.Error.InvalidArgs")
                #expect(message == "\(method.rawValue) does not take arguments of signature i")
            }
        }
        await #expect(throws: DBusError.remote(
            name: "org.freedesktop.DBus.Error.UnknownMethod", message: "org.freedesktop.Notifications has no method ActionInvoked")) {
            try await call("ActionInvoked", [.uint32(1), .string("x")])
        }
        let information = try await call(NotificationsSpec.Method.getServerInformation.rawValue, [])
        #expect(information.map(\.type.signature).joined() == NotificationsSpec.Method.getServerInformation.outputSignature)
        await connection.close()
        await server.stop()
        await testBus.stop()
    }

    @Test("the launcher-entry badge signal has Unity's shape")
    func launcherEntry() throws {
        let signal = try LauncherEntry.update(appID: "org.example.App", count: 3)
        #expect(signal.interface == "com.canonical.Unity.LauncherEntry" && signal.member == "Update")
        #expect(signal.path?.rawValue == "/com/canonical/unity/launcherentry/org_2eexample_2eApp")
        #expect(signal.body == [
            .string("application://org.example.App.desktop"),
            .variantDictionary([("count", .int64(3)), ("count-visible", .boolean(true))]),
        ])
        let hidden = try LauncherEntry.update(appID: "org.example.App", count: 0)
        #expect(hidden.body[1] == .variantDictionary([("count", .int64(0)), ("count-visible", .boolean(false))]))
    }
}
