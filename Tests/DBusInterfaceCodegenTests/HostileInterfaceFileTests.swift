import DBusInterfaceCodegen
import Foundation
import Testing
import UserNotificationsTesting

@Suite("Hostile interface files")
struct HostileInterfaceFileTests {
    /// The package's dbus/ folder.
    static let dbusFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus")

    /// A random number generator with a seed, so that a failing case comes back (xorshift64*).
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    @Test("mutated interface files give declarations or a file:line error, never a crash")
    func mutations() throws {
        let seeds = try ["org.desktopnotifications.Agent1.xml", "org.freedesktop.Notifications.xml"].map {
            Array(try Data(contentsOf: Self.dbusFolder.appendingPathComponent($0)))
        }
        let alphabet = Array("<>/=\"'&;!?-[]{}()asvuib \n\tnode interface method arg type direction".utf8) + [0, 0xff, 0xc3]
        var random = SeededGenerator(state: 0x9e37_79b9_7f4a_7c15)
        var failures = 0
        for number in 0..<3_000 {
            var bytes = seeds[number % seeds.count]
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                case 2: bytes[at] = alphabet.randomElement(using: &random)!
                case 3:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &random))
                    let piece = Array(bytes[at..<end])
                    bytes.insert(contentsOf: piece, at: Int.random(in: 0..<bytes.count, using: &random))
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "<")] }
            }
            let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            do {
                _ = try SwiftGenerator.generate(files: [("fuzz.xml", bytes)])
            } catch {
                failures += 1
                #expect(error.file == "fuzz.xml" && (1...lines).contains(error.line) && !error.message.isEmpty, "case \(number): \(error)")
            }
        }
        // Most mutations break the file: the generator noticed them.
        #expect(failures > 2_000)
    }

    @Test("a file over 1 MiB is refused at once")
    func huge() {
        let element = Array("<!-- padding padding padding padding padding padding padding padding padding padding -->\n".utf8)
        var bytes = Array("<node>\n".utf8)
        while bytes.count <= IntrospectionReader.maximumBytes { bytes += element }
        #expect(throws: InterfaceFileError(
            file: "huge.xml", line: 1, message: "the file is \(bytes.count) bytes; an interface file is at most \(IntrospectionReader.maximumBytes)")) {
            try SwiftGenerator.generate(files: [("huge.xml", bytes)])
        }
    }

    @Test("elements nested 50,000 deep stop at the depth limit, with the line")
    func deep() {
        let bytes = Array((String(repeating: "<node>\n", count: 50_000) + String(repeating: "</node>", count: 50_000)).utf8)
        #expect(throws: InterfaceFileError(file: "deep.xml", line: IntrospectionReader.maximumDepth + 1, message: "the elements nest deeper than 32")) {
            try SwiftGenerator.generate(files: [("deep.xml", bytes)])
        }
    }

    @Test("a signature nested 200 deep and one of 300 bytes are refused, with the line")
    func deepSignatures() throws {
        for type in [String(repeating: "a", count: 200) + "s", String(repeating: "(", count: 200) + "s" + String(repeating: ")", count: 200),
                     "(" + String(repeating: "s", count: 300) + ")"] {
            let text = "<node>\n<interface name=\"a.b\">\n<signal name=\"S\">\n<arg type=\"\(type)\"/></signal></interface></node>"
            do {
                _ = try SwiftGenerator.generate(files: [("sig.xml", Array(text.utf8))])
                Issue.record("\(type.prefix(10))… was taken")
            } catch {
                #expect(error.line == 4 && (error.message.contains("nests more than 32") || error.message.contains("at most 255")), "\(error)")
            }
        }
    }

    @Test("a file that is not UTF-8 is refused")
    func notUTF8() {
        #expect(throws: InterfaceFileError(file: "latin.xml", line: 1, message: "the file is not UTF-8")) {
            try SwiftGenerator.generate(files: [("latin.xml", Array("<node name=\"".utf8) + [0xe9] + Array("\"/>".utf8))])
        }
    }

    @Test("the generator program fails the build with file:line and writes nothing for a bad signature")
    func program() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = try BuiltProduct.url(named: "dbus-interface-generator")
        let good = Self.dbusFolder.appendingPathComponent("org.desktopnotifications.AgentPush1.xml").path
        let bad = folder.appendingPathComponent("org.example.Bad1.xml")
        try "<node>\n  <interface name=\"org.example.Bad1\">\n    <method name=\"M\">\n      <arg type=\"a{vs}\"/>\n    </method>\n  </interface>\n</node>\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("Out.swift")

        let failed = try Run(generator, ["--output", output.path, good, bad.path], in: folder)
        #expect(failed.status == 1)
        #expect(failed.standardError == "\(bad.path):4: error: the type \"a{vs}\" has a dict entry whose key is not a basic type\n")
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let succeeded = try Run(generator, ["--output", output.path, good], in: folder)
        #expect(succeeded.status == 0 && succeeded.standardError.isEmpty)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("package enum AgentPush1Spec {"))

        let named = try Run(generator, ["--output", output.path, "--swift-name", "PushSpec", good], in: folder)
        #expect(named.status == 0 && named.standardError.isEmpty)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("package enum PushSpec {"))
        let unfinished = try Run(generator, ["--output", output.path, "--swift-name", "PushSpec"], in: folder)
        #expect(unfinished.status == 1 && unfinished.standardError.hasPrefix("usage: "))
    }
}
