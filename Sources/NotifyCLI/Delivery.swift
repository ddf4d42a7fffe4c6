import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// Shows one notification and, when asked, waits for what the person does with it.
///
/// The order of calls follows notify-send: capabilities (only when actions or a reply are
/// asked), `Notify`, then the wait. The client's signal subscription is in place before
/// `Notify`, so an answer that comes before the reply is not lost. The wait ends on the
/// first of: an action, a reply, a close, Control-C (which closes the notification), the
/// `--timeout` (which closes it too), `-t`'s time when above 0 (which leaves it to the server,
/// as notify-send does), or the server going away.
struct Delivery: Sendable {
    /// What to show and how to wait, from the command line.
    struct Plan: Sendable {
        var request: NotifyRequest
        var actions: [NotificationAction]
        var replyPlaceholder: String?
        var wait: Bool
        var printID: Bool
        var json: Bool
        var timeout: Duration?
        /// `--id`: the name remembered in ``IdentifierStore``.
        var identifier: String?
        /// `-i`: an icon name or image file, sent as the image-path hint (see ``Delivery/apply(icon:specVersion:to:)``).
        var icon: String?
        /// `--id-fd`: where the id is written once the server gave it.
        var idDescriptor: InheritedDescriptor?
        /// `--selected-action-fd`: where the chosen action's name is written.
        var actionDescriptor: InheritedDescriptor?
        /// `--activation-token-fd`: where the chosen action's activation token is written.
        var tokenDescriptor: InheritedDescriptor?
        /// The features of the options the notification portal has no field for.
        var portalNotes: [String] = []
    }

    /// How a wait ended.
    enum Ending: String, Sendable {
        case action, reply, closed, interrupted, timeout
        case serverGone = "server-gone"
    }

    /// What the JSON output reports.
    struct Outcome: Sendable {
        var id: UInt32?
        var identifier: String?
        var server: String?
        var terminal = false
        var action: String?
        var reply: String?
        var activationToken: String?
        var closeReason: NotificationCloseReason?
        var ending: Ending?
    }

    let plan: Plan

    /// Delivers through `bus`; with `fallback`, shows the notification in the terminal when
    /// there is no bus or no server. Returns the exit status.
    ///
    /// `interruptions` are the signals that end a wait as Control-C does (a scheduled
    /// `notify` adds `SIGTERM`, which `notify cancel` sends).
    func run(bus: DBusBus, fallback: Bool, interruptions: [Int32] = [SIGINT]) async -> Int32 {
        let signals = SignalWatcher(interruptions)
        defer { signals.cancel() }
        // In a sandbox, or with NOTIFY_FORCE_PORTAL, libnotify goes through the portal when
        // it answers.
        if let mode = PortalMode.current(), let code = await PortalDelivery(plan: plan, mode: mode).run(bus: bus, signals: signals) {
            return code
        }
        let client = NotificationsClient(bus: bus, callTimeout: .seconds(5))
        do {
            return try await deliver(with: client, signals: signals, rendered: nil)
        } catch let error where fallback && Self.meansNoServer(error) {
            await client.disconnect()
            return await deliverInTerminal(signals: signals)
        } catch {
            await client.disconnect()
            Terminal.error("\(error)\n")
            return 1
        }
    }

    /// No session bus, no bus daemon listening, or nobody serving the name.
    static func meansNoServer(_ error: NotificationsError) -> Bool {
        switch error {
        case .noServer: true
        case .bus(.noBusAddress), .bus(.connectionFailed): true
        default: false
        }
    }

    /// The terminal fallback: a private bus with ``TerminalPresenter`` serving on it, written
    /// to standard error (standard output stays for what scripts read), answered from
    /// standard input.
    private func deliverInTerminal(signals: SignalWatcher) async -> Int32 {
        let bus: PrivateBus
        do {
            bus = try PrivateBus()
        } catch {
            Terminal.error("No notification server, and none can be started in this terminal: \(error)\n")
            return 1
        }
        defer { bus.stop() }
        let shown = ShownLog()
        let presenter = TerminalPresenter { text in
            Terminal.error(text)
            shown.record()
        }
        do {
            let connection = try await DBusConnection.connect(to: .address(bus.address))
            let server = try await presenter.start(on: connection)
            let client = NotificationsClient(bus: .address(bus.address), callTimeout: .seconds(5))
            let code = try await deliver(with: client, signals: signals, rendered: shown)
            await client.disconnect()
            await server.stop()
            await connection.close()
            return code
        } catch {
            Terminal.error("\(error)\n")
            return 1
        }
    }

    private func deliver(with client: NotificationsClient, signals: SignalWatcher, rendered: ShownLog?) async throws(NotificationsError) -> Int32 {
        var request = plan.request
        var failed = false
        var outcome = Outcome(identifier: plan.identifier, terminal: rendered != nil)
        let events = client.events()
        // --id on a real server: replace what that name showed, if the server that showed it
        // still serves (ids are only meaningful to the instance that gave them).
        let remembers = plan.identifier != nil && rendered == nil
        if let identifier = plan.identifier, remembers, request.replacesID == 0 {
            try await client.connect()
            do {
                if let known = try IdentifierStore.entries()[identifier], known.server == client.serverOwner {
                    request.replacesID = known.id
                }
            } catch {
                Terminal.error("\(error)\n")
                failed = true
            }
        }
        if !plan.actions.isEmpty || plan.replyPlaceholder != nil {
            let capabilities = try await client.capabilities()
            if !plan.actions.isEmpty {
                if capabilities.contains(.actions) {
                    request.actions += plan.actions
                } else {
                    Terminal.error("Actions are not supported by this notifications server. Displaying non-interactively.\n")
                    failed = true
                }
            }
            if let placeholder = plan.replyPlaceholder {
                if capabilities.contains(.inlineReply) {
                    request.actions.append(NotificationAction(key: NotificationAction.inlineReplyKey, label: "Reply"))
                    request.hints.replyPlaceholderText = placeholder
                } else {
                    Terminal.error("Inline replies are not supported by this notifications server. Displaying without a reply field.\n")
                    failed = true
                }
            }
        }
        if let icon = plan.icon {
            let information = try await client.serverInformation()
            Self.apply(icon: icon, specVersion: information.specVersion, to: &request)
        }
        let waits = plan.wait || !request.actions.isEmpty
        let posting = try await client.notify(request)
        outcome.id = posting.id
        outcome.server = posting.server
        if let rendered { await rendered.waitForFirst(timeout: .seconds(2)) }
        if plan.printID && !plan.json { Terminal.out("\(posting.id)\n") }
        if let descriptor = plan.idDescriptor, !descriptor.write(line: "\(posting.id)") { failed = true }
        let remembered = RememberedNotification(server: posting.server, id: posting.id, summary: request.summary)
        if let identifier = plan.identifier, remembers {
            do {
                try IdentifierStore.update { $0[identifier] = remembered }
            } catch {
                Terminal.error("Could not remember --id \(identifier): \(error)\n")
                failed = true
            }
        }
        if waits {
            if !(await wait(for: posting, request: request, events: events, signals: signals, client: client, outcome: &outcome)) {
                failed = true
            }
            // However the wait ended, the notification is gone: forget its name.
            if let identifier = plan.identifier, remembers {
                _ = try? IdentifierStore.update { entries in
                    if entries[identifier] == remembered { entries[identifier] = nil }
                }
            }
        }
        await client.disconnect()
        if plan.json { Terminal.out(Self.json(outcome) + "\n") }
        if outcome.ending == .serverGone { return 1 }
        return failed ? 1 : 0
    }

    private enum Input: Sendable {
        case event(NotificationEvent)
        case signal
        case timeout
        /// `-t`'s time ran out while waiting.
        case expired
        case eventsEnded
    }

    /// `-i ICON` in `request` as libnotify 0.8.4 and later send it, by the server's
    /// specification version: the `image-path` hint from 1.2, `image_path` in 1.1, and before
    /// that (no hint for it) the app icon, unless `-n` gave one. An explicit `-h` of the same
    /// hint wins.
    static func apply(icon: String, specVersion: String, to request: inout NotifyRequest) {
        let parts = specVersion.split(separator: ".").map { Int($0) ?? 0 }
        let version = (parts.first ?? 0, parts.count > 1 ? parts[1] : 0)
        let hint: String? = version >= (1, 2) ? "image-path" : version >= (1, 1) ? "image_path" : nil
        guard let hint else {
            if request.appIcon.isEmpty { request.appIcon = icon }
            return
        }
        guard request.hints[raw: hint] == nil else { return }
        do {
            try request.hints.setVendorHint(hint, .string(icon))
        } catch {
            // The name is one of the two above and the value a string the plan has checked.
            Terminal.error("-i: \(error)\n")
        }
    }

    /// Writes the chosen action and its activation token to the descriptors that asked for
    /// them, as notify-send does (the token line is empty when the server sent none); whether
    /// every write succeeded.
    func writeChoice(action: String, activationToken: String?) -> Bool {
        var written = true
        if let descriptor = plan.actionDescriptor, !descriptor.write(line: action) { written = false }
        if let descriptor = plan.tokenDescriptor, !descriptor.write(line: activationToken ?? "") { written = false }
        return written
    }

    /// Waits; `false` when an answer could not be written to its descriptor.
    private func wait(
        for posting: NotificationPosting, request: NotifyRequest, events: AsyncStream<NotificationEvent>,
        signals: SignalWatcher, client: NotificationsClient, outcome: inout Outcome
    ) async -> Bool {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        let tasks = [
            Task {
                for await event in events { feed.yield(.event(event)) }
                feed.yield(.eventsEnded)
            },
            Task {
                for await _ in signals.signals { feed.yield(.signal) }
            },
            Task { [timeout = plan.timeout] in
                guard let timeout else { return }
                do { try await Task.sleep(for: timeout) } catch { return }
                feed.yield(.timeout)
            },
            // notify-send waits at most -t's time (when above 0), whether or not the server
            // honours it: GNOME Shell, for one, ignores it.
            Task { [expiry = request.expiry.rawValue] in
                guard expiry > 0 else { return }
                do { try await Task.sleep(for: .milliseconds(Int64(expiry))) } catch { return }
                feed.yield(.expired)
            },
        ]
        defer { tasks.forEach { $0.cancel() } }
        let keys = Set(request.actions.map(\.key))
        var closeIt = false
        var written = true
        loop: for await input in inputs {
            switch input {
            case .event(.activationToken(posting.id, let token, posting.server)):
                outcome.activationToken = token
            case .event(.actionInvoked(posting.id, let key, posting.server)) where keys.contains(key) && key != NotificationAction.inlineReplyKey:
                outcome.action = key
                outcome.ending = .action
                if !plan.json { Terminal.out("\(key)\n") }
                written = writeChoice(action: key, activationToken: outcome.activationToken)
                closeIt = true
                break loop
            case .event(.actionInvoked(posting.id, let key, posting.server)) where !keys.contains(key) && key.lowercased() != "default":
                // As libnotify: an action it did not add is said and the wait goes on (a click on
                // the notification itself, "default", is not one).
                Terminal.error("Received unknown action \(key)\n")
            case .event(.replied(posting.id, let text, posting.server)):
                outcome.reply = text
                outcome.ending = .reply
                if !plan.json { Terminal.out("\(text)\n") }
                closeIt = true
                break loop
            case .event(.closed(posting.id, let reason, posting.server)):
                outcome.closeReason = reason
                outcome.ending = .closed
                break loop
            case .event(.serverChanged(posting.server, _)), .event(.disconnected), .eventsEnded:
                Terminal.error("The notification server went away while waiting.\n")
                outcome.ending = .serverGone
                break loop
            case .signal:
                Terminal.error("Wait cancelled, closing notification\n")
                outcome.ending = .interrupted
                closeIt = true
                break loop
            case .timeout:
                Terminal.error("Wait timeout expired, closing notification\n")
                outcome.ending = .timeout
                closeIt = true
                break loop
            case .expired:
                // As notify-send: the wait ends, the notification is left to the server.
                Terminal.error("Wait timeout expired\n")
                outcome.ending = .timeout
                break loop
            case .event:
                continue
            }
        }
        if closeIt {
            do {
                try await client.closeNotification(id: posting.id)
            } catch {
                Terminal.error("Could not close notification \(posting.id): \(error)\n")
            }
        }
        return written
    }

    // MARK: - JSON

    static func json(_ outcome: Outcome) -> String {
        func quoted(_ text: String?) -> String {
            guard let text else { return "null" }
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
            return String(array.dropFirst().dropLast())
        }
        let reason: String? = outcome.closeReason.map { reason in
            switch reason {
            case .expired: "expired"
            case .dismissed: "dismissed"
            case .closedByCall: "closed"
            case .undefined: "undefined"
            case .other(let value): "\(value)"
            }
        }
        let fields = [
            ("id", outcome.id.map { "\($0)" } ?? "null"),
            ("identifier", quoted(outcome.identifier)),
            ("server", quoted(outcome.server)),
            ("terminal", outcome.terminal ? "true" : "false"),
            ("action", quoted(outcome.action)),
            ("reply", quoted(outcome.reply)),
            ("activationToken", quoted(outcome.activationToken)),
            ("closeReason", quoted(reason)),
            ("waitEnded", quoted(outcome.ending?.rawValue)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// Counts what the terminal presenter has printed, so `notify` does not exit before the
/// notification is on the screen (the presenter prints just after replying to `Notify`).
final class ShownLog: Sendable {
    private let count = Locked(0)

    /// Called by the presenter's output.
    func record() { count.withLock { $0 += 1 } }

    /// Waits until something was printed, polling every 5 ms, at most `timeout`.
    func waitForFirst(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while count.withLock({ $0 }) == 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
