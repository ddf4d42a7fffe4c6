import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// `kill -9` during a store write, for real: the `state-file-torture` program (built beside the
/// test bundle, `Tests/Support/StateFileTorture`) saves generation after generation through
/// the real ``StateFile``; this test kills it with SIGKILL at random moments, then loads the
/// file with the real loader. `StateFileCrashSafetyTests` stops a save after each of its steps
/// in-process; here the kernel decides where the save was.
///
/// `STATE_FILE_KILLS` sets the number of kills (default 50).
@Suite("State file under kill -9")
struct StateFileTortureTests {
    /// What `state-file-torture` saves.
    struct Generation: Codable, Sendable {
        var generation: Int
        var padding: String
    }

    static let programName = "state-file-torture"

    /// The program: built next to the test bundle (`swift build --build-tests` puts every
    /// product in the same folder).
    static func executable() throws -> URL {
        try BuiltProduct.url(named: programName)
    }

    /// The names in `folder`, none when it does not exist yet.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static func number(after prefix: String, in lines: [Substring]) -> Int? {
        lines.last { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    @Test("a SIGKILL at any moment leaves the last committed generation or the one being written, whole, and no debris",
          .timeLimit(.minutes(3)))
    func killNine() async throws {
        let kills = Int(ProcessInfo.processInfo.environment["STATE_FILE_KILLS"] ?? "") ?? 50
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("org.example.Torture")
        var random = SeededGenerator(seed: 0x5EED_0009)
        var generation = 0
        var tally = ["during start-up": 0, "left a temporary file": 0, "file held the committed one": 0,
                     "file held the one being written": 0]
        var highest = 0

        for round in 0..<kills {
            // Up to 32 KiB a generation and a pause of up to 2 ms between saves: the kills
            // still land at every step, and the flushes do not slow the disk for other tests.
            let child = try ChildProcess(executable: Self.executable(), arguments: [folder.path, "32768", "2000"])
            let early = Int.random(in: 0..<5, using: &random) == 0
            if early {
                // At any moment, even while it loads (and clears what the last one left).
                try await Task.sleep(for: .microseconds(Int.random(in: 0...3_000, using: &random)))
            } else {
                #expect(await child.waitForOutput(containing: "writing", timeout: .seconds(10)), "round \(round): \(child.standardError)")
                try await Task.sleep(for: .microseconds(Int.random(in: 0...25_000, using: &random)))
            }
            #expect(child.send(SIGKILL), "round \(round): it was no longer running: \(child.standardError)")
            let result = try await child.result(timeout: .seconds(10))
            #expect(result.status == .signaled(SIGKILL), "round \(round): \(result.status) \(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n")
            if let start = Self.number(after: "start ", in: lines) {
                #expect(start == generation, "round \(round): the program found generation \(start), the last load \(generation)")
            } else {
                tally["during start-up", default: 0] += 1
            }
            let committed = Self.number(after: "committed ", in: lines) ?? generation
            let writing = Self.number(after: "writing ", in: lines)

            let names = Self.names(in: folder)
            let temporaries = names.filter { $0.hasPrefix(".torture.json.tmp-") }
            #expect(temporaries.count <= 1, "round \(round): \(temporaries)")
            if !temporaries.isEmpty { tally["left a temporary file", default: 0] += 1 }
            #expect(!names.contains { $0.contains("corrupt") }, "round \(round): a file was set aside: \(names)")

            let loaded = try await offThePool { try StateFile<Generation>(folder: folder, name: "torture").load() }
            switch loaded {
            case .fresh:
                #expect(committed == 0, "round \(round): no file after generation \(committed) was committed")
                generation = 0
            case .setAside(let reason, let movedTo):
                Issue.record("round \(round): the file was set aside (\(reason)) to \(movedTo.lastPathComponent)")
                generation = 0
            case .loaded(let value):
                #expect(value.generation == committed || value.generation == writing,
                        "round \(round): generation \(value.generation); committed \(committed), being written \(writing.map(String.init) ?? "none")")
                #expect(value.padding.utf8.allSatisfy { $0 == UInt8(ascii: "x") })
                tally[value.generation == committed ? "file held the committed one" : "file held the one being written", default: 0] += 1
                generation = value.generation
            }
            let after = Self.names(in: folder).filter { $0 != "torture.lock" }
            #expect(after == (generation == 0 ? [] : ["torture.json"]), "round \(round): the load left \(after)")
            highest = max(highest, generation)
        }
        #expect(highest > kills / 2, "the program hardly ever committed: generation \(highest) after \(kills) kills")
        print("state-file torture: \(kills) SIGKILLs, last generation \(generation); "
            + tally.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
    }
}
