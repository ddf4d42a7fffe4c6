import DBus
import DesktopNotificationsSupport
public import Foundation
import FreedesktopNotifications
import UserNotifications

/// Seed 000's notification on every desktop the test kit runs, as pictures: `make gallery`
/// writes them (with an index) to `docs/gallery`, and a test takes them afresh and reads the
/// title back.
///
/// Each desktop is started on a private bus, a `UNUserNotificationCenter` on that bus posts
/// the request that `examples/SaySomething` posts (title, body, the category with the
/// "Input" text action and the "Goodbye" and "Cancel" buttons) with an image attachment as
/// seed 000's image notification adds, and the screen is captured through the compositor's or
/// X server's own path (see ``GalleryDesktop/capturePath``), cropped to the notification and
/// reduced to a palette. This is not an Apple type; Apple's platforms have no such thing.
public enum Gallery {
    /// The title seed 000's actionable notification has, which a picture must show.
    public static let title = "Time Interval Notification"
    /// Its body.
    public static let body = "Please say something"
    /// Who posts it.
    public static let identity = ApplicationIdentity(id: "org.desktopnotifications.SaySomething", displayName: "Say Something")

    /// Seed 000's category: a text input, "Goodbye", a destructive "Cancel", and dismissals
    /// reported.
    public static let category: UNNotificationCategory = {
        let input = UNTextInputNotificationAction(
            identifier: "action.input", title: "Input", options: [.foreground], textInputButtonTitle: "Send",
            textInputPlaceholder: "What do you want to say...")
        let goodbye = UNNotificationAction(identifier: "action.goodbye", title: "Goodbye", options: [.foreground])
        let cancel = UNNotificationAction(identifier: "action.cancel", title: "Cancel", options: [.destructive])
        return UNNotificationCategory(
            identifier: "saySomethingCategory", actions: [input, goodbye, cancel], intentIdentifiers: [], options: [.customDismissAction])
    }()

    /// Takes the picture of `desktop` and writes it to `destination` (a PNG).
    ///
    /// - Throws: ``MissingToolError`` when a desktop part or a picture tool is missing;
    ///   ``HarnessError`` when the desktop does not start, does not show the notification, or
    ///   cannot be captured; what the center throws when it cannot post.
    public static func capture(_ desktop: GalleryDesktop, to destination: URL) async throws {
        let scratch = try HarnessTemporaryDirectory.make(prefix: "Gallery-\(desktop.rawValue)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let image = scratch.appendingPathComponent("attachment.png")
        try await GalleryImaging.run("convert", ["-size", "96x96", "gradient:#ff9500-#ff2d55", image.path])
        let screen = scratch.appendingPathComponent("screen.png")
        switch desktop {
        case .gnome:
            try await GnomeDesktop.run { gnome in
                let center = try await post(on: gnome.testBus, image: image)
                try await gnome.shell.waitForList(count: 1)
                // The banner shows its buttons once opened, as the pointer over it would open it.
                try await gnome.shell.openBanner(titled: title)
                let banner = try await gnome.shell.waitForBanner(titled: title, screenshot: screen)
                try await GalleryImaging.finish(screen, crop: .region(banner), to: destination)
                center.removeAllDeliveredNotifications()
            }
        case .plasma:
            try await PlasmaDesktop.run { plasma in
                // Plasma has no tool that lists what it shows: its popup is what changed on the
                // screen, above the panel (whose clock may tick meanwhile).
                let before = scratch.appendingPathComponent("before.png")
                let settling = scratch.appendingPathComponent("settling.png")
                try await KWinScreenShot.captureWorkspace(bus: plasma.testBus, to: before)
                let (width, height) = try await GalleryImaging.size(of: before)
                let abovePanel = GalleryRegion(x: 0, y: 0, width: width, height: height - Self.plasmaPanelHeight)
                // The desktop is drawn (not black) and still (its wallpaper fades in).
                _ = try await HarnessLifecycle.poll("waiting for Plasma's desktop", timeout: .seconds(30), interval: .milliseconds(500)) {
                    try await KWinScreenShot.captureWorkspace(bus: plasma.testBus, to: settling)
                    let still = try await GalleryImaging.changedRegion(before: before, after: settling, within: abovePanel) == nil
                    let drawn = try await GalleryImaging.contrast(of: settling) > 0.05
                    try FileManager.default.removeItem(at: before)
                    try FileManager.default.moveItem(at: settling, to: before)
                    return still && drawn ? true : nil
                }
                let center = try await post(on: plasma.testBus, image: image)
                var previous: GalleryRegion?
                let popup = try await HarnessLifecycle.poll(
                    "waiting for Plasma's popup", timeout: .seconds(20), interval: .milliseconds(500),
                    detail: { previous.map(\.description) ?? "nothing changed on the screen" }
                ) {
                    try await KWinScreenShot.captureWorkspace(bus: plasma.testBus, to: screen)
                    let current = try await GalleryImaging.changedRegion(before: before, after: screen, within: abovePanel)
                    defer { previous = current }
                    return current != nil && current == previous ? current : nil
                }
                try await GalleryImaging.finish(screen, crop: .region(popup), to: destination)
                center.removeAllDeliveredNotifications()
            }
        case .xfce:
            try await XfceDesktop.run { xfce in
                let center = try await post(on: xfce.testBus, image: image)
                let window = try await xfce.xfce.waitForWindows(count: 1)[0]
                try await GalleryImaging.captureX(display: xfce.display.display, to: screen)
                let region = GalleryRegion(x: window.x, y: window.y, width: window.width, height: window.height)
                try await GalleryImaging.finish(screen, crop: .region(region), to: destination)
                center.removeAllDeliveredNotifications()
            }
        case .mako:
            try await MakoDesktop.run { mako in
                let center = try await post(on: mako.testBus, image: image)
                try await mako.mako.waitForList(count: 1)
                // mako lists a notification before it draws it: capture until something is drawn.
                _ = try await HarnessLifecycle.poll("waiting for mako to draw", timeout: .seconds(10), interval: .milliseconds(300)) {
                    try await GalleryImaging.captureWayland(mako.compositor, to: screen)
                    return try await GalleryImaging.contrast(of: screen) > 0.01 ? true : nil
                }
                let (width, height) = try await GalleryImaging.size(of: screen)
                let whole = GalleryRegion(x: 0, y: 0, width: width, height: height)
                try await GalleryImaging.finish(screen, crop: .trimmedRegion(whole), to: destination)
                center.removeAllDeliveredNotifications()
            }
        case .dunst:
            try await DunstDesktop.run { dunst in
                let center = try await post(on: dunst.testBus, image: image)
                let window = try await GalleryImaging.waitForWindow(className: "dunst", display: dunst.display.display)
                try await GalleryImaging.captureX(display: dunst.display.display, to: screen)
                try await GalleryImaging.finish(screen, crop: .region(window), to: destination)
                center.removeAllDeliveredNotifications()
            }
        case .terminal:
            try await captureTerminal(image: image, scratch: scratch, screen: screen, to: destination)
        }
    }

    /// The height of Plasma's panel along the bottom of the screen, left out when looking for
    /// the popup (its clock changes on its own).
    static let plasmaPanelHeight = 48

    /// Posts seed 000's notification with `image` attached through a center on `bus`; the
    /// center is returned to be kept while the picture is taken.
    static func post(on bus: TestBus, image: URL) async throws -> UNUserNotificationCenter {
        let center = UNUserNotificationCenter(identity: identity, bus: .address(bus.address), persistent: false)
        center.setNotificationCategories([category])
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.categoryIdentifier = category.identifier
        content.attachments = [try UNNotificationAttachment(identifier: "imageAttachment", url: image, options: nil)]
        try await center.add(UNNotificationRequest(identifier: "com.onevcat.usernotification.saySomething", content: content, trigger: nil))
        return center
    }

    /// The terminal presenter on a private bus, its output written to a file that `xterm`
    /// shows on a virtual display; the screen is captured with `xwd` and cropped to the
    /// terminal.
    static func captureTerminal(image: URL, scratch: URL, screen: URL, to destination: URL) async throws {
        let bus = try await TestBus()
        do {
            let printed = Locked("")
            let presenter = TerminalPresenter(bell: false, output: { text in printed.withLock { $0 += text } })
            let connection = try await DBusConnection.connect(to: bus.bus)
            // Answers come from this pipe, which stays open (and silent) until the picture is taken.
            let answers = Pipe()
            let server = try await presenter.start(on: connection, input: answers.fileHandleForReading)
            let center = try await post(on: bus, image: image)
            let text = try await HarnessLifecycle.poll("waiting for the terminal presenter", timeout: .seconds(10)) {
                let text = printed.withLock { $0 }
                return text.contains("└─") ? text : nil
            }
            let transcript = scratch.appendingPathComponent("terminal.txt")
            try Data(text.utf8).write(to: transcript)
            let display = try await XvfbDisplay(screen: "1024x600x24")
            do {
                var environment = ProcessInfo.processInfo.environment
                environment["DISPLAY"] = display.display
                environment["LANG"] = "C.UTF-8"
                environment["LC_ALL"] = "C.UTF-8"
                // A column more than the longest line, a row more than the lines: nothing wraps.
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let columns = (lines.map(\.count).max() ?? 0) + 1
                // Under load Xvfb has been seen to report its display before xterm could open it.
                let xdpyinfo = try ToolRequirement.require("xdpyinfo")
                var refusal = ""
                _ = try await HarnessLifecycle.poll("waiting for \(display.display) to answer", timeout: .seconds(20), detail: { refusal }) {
                    let probe = try await ChildProcess(executable: xdpyinfo, arguments: ["-display", display.display], environment: environment)
                        .result(timeout: .seconds(10))
                    refusal = probe.standardError
                    return probe.succeeded ? true : nil
                }
                let xterm = try ChildProcess(
                    executable: GalleryImaging.require("xterm"),
                    arguments: ["-u8", "-fa", "DejaVu Sans Mono", "-fs", "11", "-bg", "white", "-fg", "black",
                                "-geometry", "\(columns)x\(lines.count)+0+0", "-hold", "-e", "/bin/cat", transcript.path],
                    environment: environment)
                do {
                    let window = try await GalleryImaging.waitForWindow(className: "xterm", display: display.display, owner: xterm)
                    try await GalleryImaging.captureX(display: display.display, to: screen)
                    try await GalleryImaging.finish(screen, crop: .region(window), to: destination)
                } catch {
                    await xterm.stop()
                    throw error
                }
                await xterm.stop()
            } catch {
                await display.stop()
                throw error
            }
            await display.stop()
            center.removeAllDeliveredNotifications()
            try? answers.fileHandleForWriting.close()
            _ = server
            await connection.close()
        } catch {
            await bus.stop()
            throw error
        }
        await bus.stop()
    }

    /// Checks the picture at `url` as a person would glance at it: at least 100×30 pixels, not
    /// one flat colour (the grey levels' standard deviation above 0.05), and ``title`` among
    /// the words `tesseract` reads in it (see ``readable(_:in:)`` for how loosely).
    ///
    /// - Throws: ``HarnessError/unexpectedOutput(command:output:reason:)`` saying which check
    ///   failed; ``MissingToolError`` without ImageMagick or tesseract.
    public static func check(_ url: URL) async throws {
        let (width, height) = try await GalleryImaging.size(of: url)
        guard width >= 100, height >= 30 else {
            throw HarnessError.unexpectedOutput(command: "identify \(url.path)", output: "\(width)x\(height)", reason: "smaller than 100x30")
        }
        let contrast = try await GalleryImaging.contrast(of: url)
        guard contrast > 0.05 else {
            throw HarnessError.unexpectedOutput(command: "convert \(url.path)", output: "standard deviation \(contrast)", reason: "blank: one flat colour")
        }
        let text = try await GalleryImaging.recognizeText(in: url)
        guard readable(title, in: text) else {
            throw HarnessError.unexpectedOutput(command: "tesseract \(url.path)", output: text, reason: "the title \"\(title)\" is not in it")
        }
    }

    /// Whether `text` (what tesseract read) holds `words`: compared without case, with runs of
    /// white space as one space, and with `I`, `l`, `1` and `|` as one letter, which tesseract
    /// tells apart by guesswork in sans-serif text ("Time interval Notification").
    public static func readable(_ words: String, in text: String) -> Bool {
        func normalized(_ text: String) -> String {
            let folded = text.lowercased().map { "l1|".contains($0) ? "i" : $0 }
            return String(folded).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        return normalized(text).contains(normalized(words))
    }

    /// The gallery's index: each picture with how it was taken and what the desktop shows
    /// and leaves out; a desktop in `failures` gets its reason instead of a picture.
    public static func index(pictures: [GalleryDesktop], failures: [GalleryDesktop: String]) -> String {
        var lines = [
            "# Gallery",
            "",
            "Seed 000's actionable notification, posted through `UNUserNotificationCenter` on each desktop the test kit runs:",
            "title \"\(title)\", body \"\(body)\", the category with the \"Input\" text action (\"Send\", placeholder",
            "\"What do you want to say...\"), \"Goodbye\" and \"Cancel\", and an image attachment (a 96×96 orange gradient).",
            "",
            "`make gallery` takes these pictures again (`notify-gallery docs/gallery`); `GalleryTests` takes each afresh and",
            "reads the title back with tesseract.",
            "",
        ]
        for desktop in GalleryDesktop.allCases {
            lines.append("## \(desktop.title)")
            lines.append("")
            if let reason = failures[desktop] {
                lines.append("Not captured: \(reason)")
            } else if pictures.contains(desktop) {
                lines.append("![Seed 000's notification on \(desktop.title)](\(desktop.fileName))")
                lines.append("")
                lines.append(desktop.notes)
                lines.append("")
                lines.append("Captured with \(desktop.capturePath).")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension GnomeShellServer {
    /// Opens the banner of the notification titled `title` as the pointer over it would (its
    /// buttons show). Another notification in the banner (the shell's own "Logged in as a
    /// privileged user" and "Screen Lock disabled" when it runs as root) is dismissed, as the
    /// shell keeps a banner on screen while nobody uses the keyboard or the pointer; and the
    /// notification is queued for the banner again when the shell left it for the message
    /// list (it queues three at most).
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` with the extension's last
    ///   answer when it is not in the banner in time.
    public func openBanner(titled title: String, timeout: Duration = .seconds(15)) async throws {
        var refusal = ""
        _ = try await HarnessLifecycle.poll("waiting for GNOME Shell's banner of \(title)", timeout: timeout, detail: { refusal }) {
            do {
                return try await callExtension("ExpandBanner", ["string:\(title)"])
            } catch HarnessError.commandFailed(let result) {
                refusal = result.standardError
                return nil
            }
        }
    }

    /// Waits until the shell's banner shows the notification titled `title`, open, on screen
    /// and still, then writes the whole stage to `screenshot` (PNG) through the harness's
    /// extension and returns the banner's geometry. While the banner shows another (the
    /// shell's own notices come late, and take the banner from ours), ours is opened again
    /// (``openBanner(titled:timeout:)``).
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` when its banner does not show.
    public func waitForBanner(titled title: String, screenshot: URL, timeout: Duration = .seconds(30)) async throws -> GalleryRegion {
        var previous: GalleryRegion?
        var refusal = ""
        return try await HarnessLifecycle.poll(
            "waiting for GNOME Shell's banner of \(title)", timeout: timeout, interval: .milliseconds(300),
            detail: { (previous.map(\.description) ?? "no banner") + " " + refusal }
        ) {
            let output = try await callExtension("Screenshot", ["string:\(screenshot.path)", "string:\(title)"]).standardOutput
            let numbers = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            guard numbers.count == 4 else {
                throw HarnessError.unexpectedOutput(command: "Harness.Screenshot", output: output, reason: "not four numbers")
            }
            let current = GalleryRegion(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            defer { previous = current }
            if current.isEmpty {
                do {
                    _ = try await callExtension("ExpandBanner", ["string:\(title)"])
                } catch HarnessError.commandFailed(let result) {
                    // Not open yet (another was dismissed, or ours is queued): polled again.
                    refusal = result.standardError
                }
            }
            return !current.isEmpty && current == previous ? current : nil
        }
    }
}
