import DBus
import DesktopNotificationsSupport
import Foundation
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// The standing hostile-peer battery: the built agent on a private bus, an honest app in this
/// process posting and answering all along, and a scripted attacker
/// (`Tests/Support/HostilePeer/hostile_peer.py`, python3-dbus) in processes of its own, first
/// unsandboxed, then in a user and mount namespace of its own with a forged Flatpak identity
/// that the agent resolves through its production path (``CallerIdentityResolver``).
///
/// Every attack must end in a typed D-Bus error or a bounded outcome; the honest app's every
/// call must succeed in under ``HostilePeerTests/worstHonestCall`` (a bound against stalls, not
/// a speed target); at the end the agent's resident memory and descriptors stay within
/// ``HostilePeerTests/residentBound`` and ``HostilePeerTests/descriptorBound``, and the user's
/// home outside the agent's state folder is unchanged, byte for byte and mode for mode.
@Suite("HostilePeerTests: the agent as a trust boundary", .serialized)
struct HostilePeerTests {
    static let honestID = "org.example.Honest"
    static let hostileID = "org.example.Hostile"
    static let sandboxedID = "org.example.Sandboxed"
    static let errorPrefix = "org.desktopnotifications.Agent1.Error."
    static let notAllowed = errorPrefix + "NotAllowed"
    static let invalidArgument = errorPrefix + "InvalidArgument"
    static let limitReached = errorPrefix + "LimitReached"
    static let invalidAttachment = errorPrefix + "UNError\(UNError.Code.attachmentInvalidURL.rawValue)"
    /// The slowest the honest app's calls may be while attacked: a stall, not a speed target.
    static let worstHonestCall: Duration = .seconds(2)
    /// The agent's resident memory at the end: the hostile app keeps its 16 MiB of requests.
    static let residentBound = 256 << 20
    /// The agent's open descriptors at the end.
    static let descriptorBound = 64

    @Test("a hostile peer, plain and forged as sandboxed, gets typed errors while the honest app keeps its pace")
    func battery() async throws {
        let battery = try await Battery()
        defer { battery.stop() }
        try await battery.start()
        let honest = try await HonestApp.start(on: battery.testBus.bus, server: try #require(battery.server))
        let before = try HomeSnapshot(of: battery.home, excluding: battery.agentStateFolder)

        let host = try await battery.runPeer(phase: "host", appID: Self.hostileID)
        // The junk apps are let go a grace period after their connection left
        // (AgentService.releaseGrace); the later phases need their places.
        #expect(await eventually(timeout: .seconds(15)) { (try? await battery.statusFromHost())?.contains("org.example.Junk") == false })
        let forged = try await battery.runPeer(phase: "forged-honest", appID: Self.honestID, unshared: true)
        let sandboxed = try await battery.runPeer(phase: "sandboxed", appID: Self.sandboxedID, unshared: true)
        let results = host.merging(forged) { $1 }.merging(sandboxed) { $1 }

        let calls = await honest.stop()
        for (attack, expected) in Self.expectations {
            let result = try #require(results[attack], "\(attack) was not tried")
            #expect(expected.contains(result.outcome), "\(attack): \(result.outcome) \(result.detail)")
        }
        try checkBoundedOutcomes(results)
        // The honest app: every call answered, none stalled, and it was asked WillPresent.
        #expect(calls.failures.isEmpty, "the honest app's calls failed: \(calls.failures.prefix(5))")
        #expect(calls.adds > 20)
        #expect(calls.worstAdd < Self.worstHonestCall, "the honest app's worst Add took \(calls.worstAdd)")
        for (started, elapsed) in calls.slow {
            let during = results.filter { $0.value.started <= started && started <= $0.value.started + $0.value.seconds }.map(\.key)
            print("hostile-peer: an honest call took \(elapsed.milliseconds) ms, begun during \(during.sorted())")
        }
        #expect(calls.worstOther < Self.worstHonestCall, "the honest app's worst other call took \(calls.worstOther)")
        #expect(honest.answered > 0)
        #expect(calls.responses > 0, "the honest app took no response to its notifications' clicks")
        // Nothing made for refused callers; junk apps let go once their connection left.
        #expect(await eventually {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: battery.agentStateFolder.path)) ?? []
            return !names.contains { $0.hasPrefix("org.example.Claimed") || $0.hasPrefix("org.example.Junk") }
        }, "the state folder holds \((try? FileManager.default.contentsOfDirectory(atPath: battery.agentStateFolder.path)) ?? [])")
        // Nor any app held for them (asked as the user's own process: every app).
        let status = try await battery.statusFromHost()
        #expect(status.contains(Self.honestID) && !status.contains("org.example.Claimed") && !status.contains("org.example.Junk"), "\(status)")
        // Nothing of the folders, links, FIFOs or over-budget files was copied: the agent's store
        // holds the two small attachments it took, and nothing outside its attachment folders.
        let stored = try Battery.regularFiles(under: battery.agentStateFolder)
        let attachments = stored.filter { $0.path.contains("/attachments/") }
        #expect(attachments.reduce(0) { $0 + $1.size } < 64 * 1024, "\(attachments)")
        // Outside the attachment folders, only files directly in an app's folder (its state).
        let root = battery.agentStateFolder.path + "/"
        let nested = stored.filter { !$0.path.contains("/attachments/") && $0.path.dropFirst(root.count).split(separator: "/").count > 2 }
        #expect(nested.isEmpty, "\(nested.map(\.path))")
        // The agent's health and the user's files.
        let usage = try battery.agentUsage()
        let after = try HomeSnapshot(of: battery.home, excluding: battery.agentStateFolder)
        let changes = before.changes(to: after)
        #expect(changes.isEmpty, "outside the agent's state folder: \(changes.prefix(10))")
        #expect(usage.resident <= Self.residentBound, "the agent's RSS is \(usage.resident) bytes")
        #expect(usage.descriptors <= Self.descriptorBound, "the agent holds \(usage.descriptors) descriptors")
        print("""
            hostile-peer battery: \(results.count) attacks tried; honest app: \(calls.adds) Adds, worst Add \
            \(calls.worstAdd.milliseconds) ms, worst other call \(calls.worstOther.milliseconds) ms, \
            \(honest.answered) WillPresent answered, \(calls.responses) responses taken; agent at the end: RSS \(usage.resident >> 10) KiB, \
            \(usage.descriptors) descriptors; bytes written outside the state folder: \(before.bytesChanged(to: after)), \
            entries changed: \(changes.count); the agent's store: \(attachments.count) attachment files, \
            \(attachments.reduce(0) { $0 + $1.size }) bytes
            """)
    }

    @Test("trigger intervals and dates past what a clock can honour end in a typed error or a bounded request")
    func unhonourableTriggers() async throws {
        let battery = try await Battery()
        defer { battery.stop() }
        try await battery.start()
        let honest = try await HonestApp.start(on: battery.testBus.bus, server: try #require(battery.server))
        let results = try await battery.runPeer(phase: "triggers", appID: Self.hostileID)
        let calls = await honest.stop()
        #expect(results.count >= 9)
        for (attack, result) in results where attack.hasPrefix("trigger-") {
            #expect(result.outcome == "ok" || result.outcome.hasPrefix(Self.errorPrefix), "\(attack): \(result.outcome) \(result.detail)")
        }
        #expect(results["trigger-version-at-end"]?.outcome == "ok")
        // Components out of range, Int64.max (Foundation's "not set") too, are refused as read;
        // the farthest year a date may have is taken.
        for name in ["year-int-max", "year-1e12", "day-huge", "year-negative"] {
            #expect(results["trigger-calendar-\(name)"]?.outcome == Self.invalidArgument, "\(name): \(results["trigger-calendar-\(name)"]?.detail ?? "?")")
        }
        #expect(results["trigger-calendar-year-100000"]?.outcome == "ok", "\(results["trigger-calendar-year-100000"]?.detail ?? "?")")
        #expect(calls.failures.isEmpty, "the honest app's calls failed: \(calls.failures.prefix(5))")
        #expect(calls.worstAdd < Self.worstHonestCall)
        #expect(battery.agent?.isRunning == true, "the agent ended: \(battery.agent?.exitStatus.map(String.init(describing:)) ?? "?")")
        // What it accepted is saved; an agent started again reads it back without a trap.
        _ = await battery.agent?.stop()
        try await battery.start()
        let client = try await AgentTestClient.connect(battery.testBus.bus)
        #expect(try await client.call("Version") == [.uint32(AgentInterface.version)])
        let status = try await client.call("Status").first?.stringValue ?? ""
        #expect(status.contains(Self.hostileID), "\(status)")
        await client.close()
        #expect(battery.agent?.isRunning == true, "the restarted agent ended: \(battery.agent?.standardError.suffix(2000) ?? "")")
        print("hostile-peer triggers: \(results.count) attacks tried; worst honest Add \(calls.worstAdd.milliseconds) ms")
    }

    /// The outcomes each attack may end in.
    static let expectations: [String: Set<String>] = [
        "connect-own": ["ok"],
        "fifo-path": [invalidAttachment],
        "fifo-descriptor": [invalidAttachment],
        "symlink-file": [invalidAttachment],
        "symlink-folder": [invalidAttachment],
        "folder-path": [invalidAttachment],
        "folder-descriptor": [invalidAttachment],
        "request-at-64k": ["ok"],
        "request-over-64k": [invalidArgument],
        "batch-over-bytes": [invalidArgument],
        "app-state-budget": [limitReached],
        "attachment-over-budget-path": [limitReached],
        "attachment-over-budget-descriptor": [limitReached],
        "attachments-over-count": [invalidArgument],
        // Over the bus's descriptors per message: the bus drops the sender, or the agent refuses.
        "descriptors-over-count": [invalidArgument, "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoReply"],
        "addfiles-fewer-descriptors": [invalidArgument],
        "addfiles-more-descriptors": [invalidArgument],
        "addfiles-no-attachment": [invalidArgument],
        // The bus refuses a message that large before the agent sees it, or the agent does.
        "connect-20mb-name": [invalidArgument, "org.freedesktop.DBus.Error.LimitsExceeded"],
        "connect-control-name": [invalidArgument],
        "connect-long-icon": [invalidArgument],
        "takeover-connect": [notAllowed],
        "other-app-pending": [notAllowed],
        "other-app-delivered": [notAllowed],
        "other-app-take-responses": [notAllowed],
        "other-app-add": [notAllowed],
        "other-app-remove": [notAllowed],
        "other-app-badge": [notAllowed],
        "status-host": ["ok"],
        "signature-missing-argument": [invalidArgument],
        "signature-wrong-types": [invalidArgument],
        "signature-connect-ss": [invalidArgument],
        "signature-extra-argument": [invalidArgument],
        "signature-variant-body": [invalidArgument],
        "unknown-member": ["org.freedesktop.DBus.Error.UnknownMethod"],
        "invalid-app-id": [invalidArgument],
        "empty-app-id": [invalidArgument],
        "record-signature-ss": [invalidArgument],
        "record-signature-array": [invalidArgument],
        "record-unknown-field": [invalidArgument],
        "record-unknown-content-field": [invalidArgument],
        "record-wrong-type": [invalidArgument],
        "record-wrong-integer-type": [invalidArgument],
        "record-missing-identifier": [invalidArgument],
        "record-trigger-other-kind": [invalidArgument],
        "record-trigger-unknown-kind": [invalidArgument],
        "record-userinfo-deep": [invalidArgument],
        // Past D-Bus's nesting: the bus drops the sender before the agent sees the message.
        "record-userinfo-too-deep": ["org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoReply"],
        "addrequests-10k": [invalidArgument],
        // An identifier list is bounded as a record argument is (1 MiB, each identifier's
        // bytes and 8): 100,000 identifiers are over it.
        "remove-100k-ids": [invalidArgument],
        "acknowledge-100k-ids": [invalidArgument],
        "categories-signature-ss": [invalidArgument],
        "categories-wrong-type": [invalidArgument],
        "categories-unknown-field": [invalidArgument],
        "junk-host-connects": ["bounded"],
        "flood-then-version": ["ok"],
        "flood": ["bounded"],
        "close-mid-call": ["bounded"],
        "silent-center-then-pending": ["ok"],
        "silent-center": ["bounded"],
        "regular-attachment-path": ["ok"],
        "version-at-end": ["ok"],
        "forged-no-instance-connect": [notAllowed],
        "forged-instance-connect": [notAllowed],
        "forged-instance-pending": [notAllowed, errorPrefix + "UnknownApp"],
        "forged-instance-delivered": [notAllowed, errorPrefix + "UnknownApp"],
        "forged-instance-take-responses": [notAllowed, errorPrefix + "UnknownApp"],
        "forged-instance-add": [notAllowed, errorPrefix + "UnknownApp"],
        "forged-instance-status": ["ok"],
        "sandboxed-claims-other-ids": ["bounded"],
        "sandboxed-icon-path": [notAllowed],
        "sandboxed-connect": ["ok"],
        "sandboxed-status": ["ok"],
        "sandboxed-host-path-bashrc": [notAllowed],
        "sandboxed-host-path-secret": [notAllowed],
        "sandboxed-host-path-missing": [notAllowed],
        "sandboxed-host-path-folder": [notAllowed],
        "sandboxed-host-path-batch-bashrc": ["ok"],
        "sandboxed-host-path-batch-secret": ["ok"],
        "sandboxed-host-path-batch-missing": ["ok"],
        "sandboxed-host-path-batch-folder": ["ok"],
        "sandboxed-bundle-path-home": [notAllowed],
        "sandboxed-bundle-path-missing": [notAllowed],
        "sandboxed-fifo-descriptor": [invalidAttachment],
        "sandboxed-folder-descriptor": [invalidAttachment],
        "sandboxed-regular-descriptor": ["ok"],
        "sandboxed-other-app-pending": [notAllowed],
        "sandboxed-version-at-end": ["ok"],
    ]

    /// The attacks whose outcome is a count, or whose detail tells more than the error name.
    func checkBoundedOutcomes(_ results: [String: PeerResult]) throws {
        // 60 KiB requests until 16 MiB, counted by AgentPayload.size(of:): the agent counts
        // each as the script does (61 674 bytes: the body's 61 440 and 234 of fields and
        // identifiers) and takes them until the next would pass the budget, then refuses. What
        // it holds is measured from the records it writes again, a few bytes more each than
        // sent (under 64), so 271 fit where 272 would at 61 674 bytes each.
        let budget = try #require(results["app-state-budget"]).detail
        let accepted = budget.firstMatch(of: /accepted=(\d+)/).flatMap { Int($0.1) } ?? -1
        let size = budget.firstMatch(of: /size=(\d+)/).flatMap { Int($0.1) } ?? -1
        let refusal = try #require(budget.firstMatch(of: /holds (\d+) bytes of requests and categories; (\d+) more would pass (\d+)/), "\(budget)")
        let (held, more, limit) = (Int(refusal.1) ?? -1, Int(refusal.2) ?? -1, Int(refusal.3) ?? -1)
        #expect(size == 61_674 && more == size && limit == AgentLimits.appStateBytes, "\(budget)")
        #expect(held <= limit && held + more > limit && accepted == held / size, "\(budget)")
        #expect((AgentLimits.appStateBytes / (61_674 + 64)...AgentLimits.appStateBytes / 61_674).contains(accepted), "\(budget)")
        // The request bound is AgentPayload.size(of:) to the byte; the batch bound as well,
        // refused whole before any of its requests is read.
        #expect(try #require(results["request-over-64k"]).detail.hasSuffix("not \(AgentLimits.requestBytes + 1)"))
        #expect(try #require(results["batch-over-bytes"]).detail
            == "AddRequests takes at most \(AgentInterface.maximumBatchBytes) bytes, not \(AgentInterface.maximumBatchBytes + 1)")
        // Each record that is not what it should be is refused naming the field.
        let refusals = [
            "record-signature-ss": "Add takes (sa{sv}), not (ss)",
            "record-signature-array": "Add takes (sa{sv}), not (saa{sv})",
            "record-unknown-field": #"request has no field "colour""#,
            "record-unknown-content-field": #"request.content has no field "colour""#,
            "record-wrong-type": "request.content.badge",
            "record-wrong-integer-type": "request.content.badge",
            "record-missing-identifier": "request lacks the field identifier",
            "record-trigger-other-kind": #"request.trigger has no field "interval""#,
            "record-trigger-unknown-kind": "request.trigger.kind is not a trigger kind",
            "record-userinfo-deep": "request.content.userInfo" + String(repeating: ".next", count: 19) + " is a ao, which user info does not hold",
            "categories-signature-ss": "SetCategories takes (saa{sv}), not (ss)",
            "categories-wrong-type": "categories[1].identifier",
            "categories-unknown-field": #"categories[0] has no field "colour""#,
            "remove-100k-ids": "identifiers is 1588890 bytes, over \(AgentInterface.maximumArgumentBytes)",
            "acknowledge-100k-ids": "response_ids is 1488890 bytes, over \(AgentInterface.maximumArgumentBytes)",
        ]
        for (attack, words) in refusals {
            #expect(results[attack]?.detail.contains(words) == true, "\(attack): \(results[attack]?.detail ?? "not tried")")
        }
        let junk = try #require(results["junk-host-connects"]).detail
        let connected = junk.firstMatch(of: /connected=(\d+)/).flatMap { Int($0.1) } ?? -1
        #expect(connected > 0 && connected <= AgentLimits.apps, "\(junk)")
        #expect(junk.contains("\"\(Self.limitReached)\""), "\(junk)")
        #expect(!junk.contains("\"org.desktopnotifications.Agent1.Error.NotAllowed\""), "\(junk)")
        let claimed = try #require(results["sandboxed-claims-other-ids"]).detail
        #expect(claimed.contains("{\"\(Self.notAllowed)\": 60}"), "\(claimed)")
        // Identified as the honest app through the production path: refused for the binding, not the file.
        #expect(try #require(results["forged-no-instance-connect"]).detail.contains("instance"))
        #expect(try #require(results["forged-instance-connect"]).detail.contains("another process"))
        #expect(try #require(results["forged-instance-status"]).detail.contains(Self.honestID) == false)
        let sandboxedStatus = try #require(results["sandboxed-status"]).detail
        #expect(sandboxedStatus.contains(Self.sandboxedID) && !sandboxedStatus.contains(Self.honestID) && !sandboxedStatus.contains(Self.hostileID))
        let hostStatus = try #require(results["status-host"]).detail
        #expect(hostStatus.contains(Self.honestID) && hostStatus.contains(Self.hostileID))
        // A host path refused for a sandboxed app tells nothing of the file: the same words for
        // a file that exists, one that does not and a folder.
        let words = ["bashrc", "secret", "missing", "folder"].map { name in
            (results["sandboxed-host-path-\(name)"]?.detail ?? "?").replacing(/\/\S+/, with: "PATH")
        }
        #expect(Set(words).count == 1, "\(words)")
        #expect(!words[0].contains("bytes") && !words[0].contains("exist"), "\(words[0])")
        for name in ["bashrc", "secret", "missing", "folder"] {
            #expect(results["sandboxed-host-path-batch-\(name)"]?.detail.contains(Self.notAllowed) == true)
        }
        let bundleWords = ["home", "missing"].map { results["sandboxed-bundle-path-\($0)"]?.detail ?? "?" }
        #expect(Set(bundleWords).count == 1 && bundleWords[0].contains("content.localizations.title.bundlePath"), "\(bundleWords)")
        #expect(results["connect-20mb-name"].map { $0.detail.utf8.count < 1000 } == true)
    }
}

/// One line the hostile peer printed: the attack's outcome (a D-Bus error name, `ok` or
/// `bounded`), its seconds and its detail.
struct PeerResult {
    let outcome: String
    let seconds: Double
    /// When the attack began, in seconds since 1970.
    let started: Double
    let detail: String
}

extension Duration {
    var milliseconds: Int { Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000) }
}

/// The scratch home, the runtime folder, the attacker's folder and the agent, for one run.
final class Battery: Sendable {
    let testBus: TestBus
    let scratch: TemporaryFolder
    let agentBox = Locked<ChildProcess?>(nil)
    var agent: ChildProcess? { agentBox.withLock { $0 } }
    let serverBox = Locked<FakeNotificationServer?>(nil)
    /// The notification server, where the test clicks the honest app's notifications.
    var server: FakeNotificationServer? { serverBox.withLock { $0 } }

    var home: URL { scratch.url.appendingPathComponent("home") }
    var stateHome: URL { home.appendingPathComponent(".local/state") }
    var agentStateFolder: URL { stateHome.appendingPathComponent("desktopnotifications-agent") }
    var runtime: URL { scratch.url.appendingPathComponent("runtime") }
    var attacker: URL { scratch.url.appendingPathComponent("attacker") }

    init() async throws {
        testBus = try await TestBus()
        scratch = try TemporaryFolder(prefix: "hostile-peer")
        try makeHome()
    }

    /// A user's home: a shell file, a secret, a private folder and a big folder, each with the
    /// mode such files have.
    private func makeHome() throws {
        let files = FileManager.default
        for (folder, mode) in [(home, 0o755), (stateHome, 0o700), (home.appendingPathComponent("private"), 0o700),
                               (home.appendingPathComponent("big"), 0o755), (runtime, 0o700), (attacker, 0o700)] {
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            chmod(folder.path, mode_t(mode))
        }
        func write(_ relative: String, _ data: Data, mode: Int) throws {
            let url = home.appendingPathComponent(relative)
            try data.write(to: url)
            chmod(url.path, mode_t(mode))
        }
        try write(".bashrc", Data("export PATH=$HOME/bin:$PATH\n".utf8), mode: 0o644)
        try write("secret.txt", Data("the user's secret\n".utf8), mode: 0o600)
        try write("private/notes.txt", Data("private notes\n".utf8), mode: 0o600)
        try write("private/run.sh", Data("#!/bin/sh\n".utf8), mode: 0o755)
        for index in 0..<100 {
            try write("big/part-\(index).bin", Data(repeating: UInt8(index), count: 64 * 1024), mode: 0o644)
        }
    }

    /// Starts the built agent with the scratch home, and a notification server the first time.
    func start() async throws {
        if server == nil {
            let server = try await FakeNotificationServer.start(on: testBus.bus)
            serverBox.withLock { $0 = server }
        }
        let agent = try await testBus.startAgent(environment: [
            "HOME": home.path, "XDG_STATE_HOME": stateHome.path, "XDG_RUNTIME_DIR": runtime.path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path, "XDG_DATA_DIRS": "/nonexistent",
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
        ])
        agentBox.withLock { $0 = agent }
    }

    func stop() {
        if let agent { _ = agent.send(SIGKILL) }
    }

    /// Runs one phase of the hostile peer (in a user and mount namespace of its own when
    /// `unshared`) and returns its results by attack.
    func runPeer(phase: String, appID: String, unshared: Bool = false) async throws -> [String: PeerResult] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/HostilePeer/hostile_peer.py").path
        let scratch = attacker.appendingPathComponent(phase)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let arguments = [
            script, "--phase", phase, "--bus", testBus.address, "--request-bytes", "\(AgentLimits.requestBytes)",
            "--batch-bytes", "\(AgentInterface.maximumBatchBytes)", "--scratch", scratch.path,
            "--victim-home", home.path, "--runtime", runtime.path, "--honest-id", HostilePeerTests.honestID, "--app-id", appID,
        ]
        let python = try ToolRequirement.require("/usr/bin/python3").path
        try await ToolRequirement.requirePythonModule("dbus", package: "python3-dbus")
        let result = unshared
            ? try await testBus.run("unshare", ["--user", "--map-root-user", "--mount", "--", python] + arguments, timeout: .seconds(600))
            : try await testBus.run(python, arguments, timeout: .seconds(600))
        #expect(result.succeeded && result.standardOutput.contains("\nDONE\n"), "phase \(phase): \(result.standardError.suffix(3000))")
        var results: [String: PeerResult] = [:]
        for line in result.standardOutput.split(separator: "\n") where line.hasPrefix("RESULT\t") {
            let fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6 else { continue }
            let key = results[fields[1]] == nil ? fields[1] : "\(phase)-\(fields[1])"
            results[key] = PeerResult(outcome: fields[2], seconds: Double(fields[3]) ?? -1, started: Double(fields[4]) ?? 0, detail: fields[5])
            print("hostile-peer \(phase): \(key) -> \(fields[2]) in \(fields[3]) s \(fields[5].prefix(160))")
        }
        #expect(!results.isEmpty, "phase \(phase) printed no result: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        return results
    }

    /// The regular files under `folder`, with their sizes.
    static func regularFiles(under folder: URL) throws -> [(path: String, size: Int)] {
        var files: [(path: String, size: Int)] = []
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
        for case let relative as String in walker {
            var status = stat()
            let path = folder.path + "/" + relative
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { files.append((path, Int(status.st_size))) }
        }
        return files
    }

    /// `Status` asked by a connection of this process (unsandboxed: every app).
    func statusFromHost() async throws -> String {
        let client = try await AgentTestClient.connect(testBus.bus)
        do {
            let status = try await client.call("Status").first?.stringValue ?? ""
            await client.close()
            return status
        } catch {
            await client.close()
            throw error
        }
    }

    /// The agent's resident memory (`VmRSS`) and open descriptors, from `/proc`.
    func agentUsage() throws -> (resident: Int, descriptors: Int) {
        let agent = try #require(agent)
        #expect(agent.isRunning, "the agent ended: \(String(describing: agent.exitStatus)) \(agent.standardError.suffix(3000))")
        let status = try String(contentsOfFile: "/proc/\(agent.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kib = try #require(Int(line.split(whereSeparator: \.isWhitespace)[1]))
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(agent.pid)/fd").count
        return (kib << 10, descriptors)
    }
}

/// The honest app, in this process: a center connected as ``HostilePeerTests/honestID`` that
/// answers `WillPresent` and keeps posting (one request shown now, one for later) and clearing
/// its lists, timing each call.
final class HonestApp: Sendable {
    struct Calls: Sendable {
        var adds = 0
        var worstAdd: Duration = .zero
        var worstOther: Duration = .zero
        var failures: [String] = []
        /// The responses (clicks on its notifications) the app took and acknowledged.
        var responses = 0
        /// The calls over half a second: when each began (seconds since 1970) and its time.
        var slow: [(started: Double, elapsed: Duration)] = []
    }

    let client: AgentTestClient
    let export: DBusConnection.Export
    let server: FakeNotificationServer
    private let asked: Locked<Int>
    private let calls = Locked(Calls())
    private let running = Locked(true)
    private let loop = Locked<Task<Void, Never>?>(nil)

    var answered: Int { asked.withLock { $0 } }

    private init(client: AgentTestClient, export: DBusConnection.Export, server: FakeNotificationServer, asked: Locked<Int>) {
        self.client = client
        self.server = server
        self.export = export
        self.asked = asked
    }

    static func start(on bus: DBusBus, server: FakeNotificationServer) async throws -> HonestApp {
        let client = try await AgentTestClient.connect(bus)
        let asked = Locked(0)
        let interface = try DBusExportedInterface(name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML) {
            invocation in
            asked.withLock { $0 += 1 }
            invocation.reply([.uint32(UInt32(UNNotificationPresentationOptions([.banner, .list]).rawValue))])
        }
        let export = client.connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [interface]))
        let app = HonestApp(client: client, export: export, server: server, asked: asked)
        try await client.connectApp(HostilePeerTests.honestID, name: "Honest App")
        app.loop.withLock { $0 = Task { await app.run() } }
        return app
    }

    private func run() async {
        var round = 0
        while running.withLock({ $0 }) {
            round += 1
            await timed(add: true) { try await client.add(AgentTestClient.request("now-\(round)"), for: HostilePeerTests.honestID) }
            await timed(add: true) { try await client.add(AgentTestClient.request("later-\(round)", after: 3600), for: HostilePeerTests.honestID) }
            if round.isMultiple(of: 10) {
                // The user clicks the app's newest notification on screen; the app takes the
                // response and acknowledges it.
                let live = server.liveIDs
                if let id = server.notifications.last(where: { $0.request.summary.hasPrefix("Title of now-") && $0.id.map(live.contains) == true })?.id {
                    server.invokeAction(id: id)
                }
            }
            if round.isMultiple(of: 10), round > 10 {
                await timed(add: false) {
                    let taken = try await client.call("TakeResponses", [.string(HostilePeerTests.honestID)])
                    guard case .array(_, let items)? = taken.first else { throw HonestAppError.malformed("TakeResponses: \(taken)") }
                    let ids = items.compactMap { item -> String? in
                        if case .structure(let pair) = item { return pair.first?.stringValue } else { return nil }
                    }
                    if !ids.isEmpty {
                        try await client.call("AcknowledgeResponses", [.string(HostilePeerTests.honestID), .stringArray(ids)])
                    }
                    calls.withLock { $0.responses += ids.count }
                }
            }
            if round.isMultiple(of: 25) {
                await timed(add: false) { _ = try await client.pending(of: HostilePeerTests.honestID) }
                await timed(add: false) {
                    try await client.call("RemovePendingRequests", [.string(HostilePeerTests.honestID), .stringArray([]), .boolean(true)])
                }
                await timed(add: false) {
                    try await client.call("RemoveDeliveredNotifications", [.string(HostilePeerTests.honestID), .stringArray([]), .boolean(true)])
                }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func timed(add: Bool, _ call: () async throws -> Void) async {
        let wallStart = Date().timeIntervalSince1970
        let start = ContinuousClock.now
        do {
            try await call()
        } catch {
            calls.withLock { $0.failures.append("\(error)") }
        }
        let elapsed = ContinuousClock.now - start
        calls.withLock { calls in
            if elapsed > .milliseconds(500) { calls.slow.append((wallStart, elapsed)) }
            if add {
                calls.adds += 1
                calls.worstAdd = max(calls.worstAdd, elapsed)
            } else {
                calls.worstOther = max(calls.worstOther, elapsed)
            }
        }
    }

    /// Stops posting and returns what the calls did.
    func stop() async -> Calls {
        running.withLock { $0 = false }
        await loop.withLock { $0 }?.value
        export.unexport()
        await client.close()
        return calls.withLock { $0 }
    }
}

/// A reply the honest app could not read.
enum HonestAppError: Error {
    case malformed(String)
}

/// The entries of a folder tree (paths, kinds, modes, sizes, modification times and each
/// file's bytes), except one subtree.
struct HomeSnapshot {
    struct Entry: Equatable {
        let kind: mode_t
        let mode: mode_t
        let size: Int
        let modified: Int
        /// The file's bytes, or a link's target.
        let contents: Data
    }

    let entries: [String: Entry]

    init(of root: URL, excluding excluded: URL) throws {
        var entries: [String: Entry] = [:]
        func walk(_ path: String) throws {
            var status = stat()
            guard lstat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let kind = status.st_mode & S_IFMT
            var contents = Data()
            if kind == S_IFREG {
                contents = try Data(contentsOf: URL(fileURLWithPath: path))
            } else if kind == S_IFLNK {
                contents = Data(try FileManager.default.destinationOfSymbolicLink(atPath: path).utf8)
            }
            let modified = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
            // A folder's size and time change with its entries, which are compared one by one.
            let isFolder = kind == S_IFDIR
            entries[path] = Entry(
                kind: kind, mode: status.st_mode & 0o7777, size: isFolder ? 0 : Int(status.st_size), modified: isFolder ? 0 : modified,
                contents: contents)
            guard isFolder, path != excluded.path else { return }
            for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
                try walk(path + "/" + name)
            }
        }
        try walk(root.path)
        self.entries = entries
    }

    /// The paths added, removed or changed in `other`.
    func changes(to other: HomeSnapshot) -> [String] {
        let paths = Set(entries.keys).union(other.entries.keys).sorted()
        return paths.compactMap { path in
            switch (entries[path], other.entries[path]) {
            case (nil, let new?): "added \(path) (\(new.size) bytes)"
            case (_?, nil): "removed \(path)"
            case (let old?, let new?) where old != new: "changed \(path): \(old) -> \(new)"
            default: nil
            }
        }
    }

    /// The bytes of the files added or changed in `other`.
    func bytesChanged(to other: HomeSnapshot) -> Int {
        other.entries.reduce(0) { total, item in
            entries[item.key] == item.value ? total : total + item.value.size
        }
    }
}
