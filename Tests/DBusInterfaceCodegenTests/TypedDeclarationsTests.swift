import DBusInterfaceCodegen
import Foundation
import Testing
import UserNotificationsTesting

@Suite("The generator's typed arguments, replies and calls")
struct TypedDeclarationsTests {
    /// Every kind of argument: each basic type, a variant, arrays and dictionaries of them, and
    /// the types kept as `DBusValue` (a struct, an array of structs); names in snake case, a
    /// keyword, a reserved name, a duplicate, an unnamed argument and one that would break a
    /// comment.
    static let file = """
        <node>
          <interface name="org.example.Typed1">
            <method name="Everything">
              <arg name="app_id" type="s" direction="in"/>
              <arg name="a_byte" type="y" direction="in"/>
              <arg name="flag" type="b" direction="in"/>
              <arg name="small" type="n" direction="in"/>
              <arg name="usmall" type="q" direction="in"/>
              <arg name="number" type="i" direction="in"/>
              <arg name="unsigned" type="u" direction="in"/>
              <arg name="big" type="x" direction="in"/>
              <arg name="ubig" type="t" direction="in"/>
              <arg name="real" type="d" direction="in"/>
              <arg name="path" type="o" direction="in"/>
              <arg name="sig" type="g" direction="in"/>
              <arg name="file" type="h" direction="in"/>
              <arg name="anything" type="v" direction="in"/>
              <arg name="bytes" type="ay" direction="in"/>
              <arg name="response_ids" type="as" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/>
              <arg name="names" type="a{ss}" direction="in"/>
              <arg name="nested" type="aas" direction="in"/>
              <arg name="pairs" type="a(ss)" direction="in"/>
              <arg name="pair" type="(is)" direction="in"/>
              <arg name="default" type="s" direction="in"/>
              <arg name="values" type="s" direction="in"/>
              <arg name="flag" type="b" direction="in"/>
              <arg type="u" direction="in"/>
              <arg name="bad&#10;name */ evil" type="s" direction="in"/>
              <arg name="answer" type="s" direction="out"/>
            </method>
            <method name="Ping"/>
            <signal name="Changed">
              <arg name="request_json" type="s"/>
            </signal>
            <signal name="Nothing"/>
          </interface>
        </node>
        """

    @Test("each argument gets a field of its Swift type, named from the file")
    func fields() throws {
        let swift = try SwiftGenerator.generate(files: [("dbus/org.example.Typed1.xml", Array(Self.file.utf8))])
        let expected = [
            "appID: String", "aByte: UInt8", "flag: Bool", "small: Int16", "usmall: UInt16", "number: Int32", "unsigned: UInt32",
            "big: Int64", "ubig: UInt64", "real: Double", "path: DBusObjectPath", "sig: DBusSignature", "file: DBusFileDescriptor",
            "anything: DBusValue", "bytes: [UInt8]", "responseIDs: [String]", "hints: [String: DBusValue]", "names: [String: String]",
            "nested: [[String]]", "pairs: DBusValue", "pair: DBusValue", "`default`: String", "valuesValue: String", "flag2: Bool",
            "value24: UInt32", "badNameEvil: String",
        ]
        for field in expected {
            #expect(swift.contains("        package var \(field)\n"), "no field \(field)")
        }
        #expect(swift.contains("package init(appID: String, aByte: UInt8, flag: Bool,"))
        #expect(swift.contains("self.pairs = try DBusValue.checked(values[19], signature: \"a(ss)\")"))
        #expect(swift.contains("self.anything = try DBusValue.reading(values[13])"))
        #expect(swift.contains("package struct EverythingReply: Sendable {"))
        #expect(swift.contains("package struct ChangedSignal: Sendable {"))
        // A method or signal without values gets no struct; a call of it is a case without one.
        #expect(!swift.contains("PingArguments") && !swift.contains("PingReply") && !swift.contains("NothingSignal"))
        #expect(swift.contains("        case ping\n"))
        #expect(swift.contains("        case everything(EverythingArguments)\n"))
        // The name that holds a line break is written with `?` in the comments, never as is.
        #expect(swift.contains("`bad?name????evil` (`s`)"))
        #expect(!swift.contains("bad\nname"))
    }

    /// An interface with properties alone: no method, no signal.
    static let propertiesOnly = """
        <node>
          <interface name="org.example.Place1">
            <property name="Latitude" type="d" access="read"/>
            <property name="Timestamp" type="(tt)" access="readwrite"/>
          </interface>
        </node>
        """

    @Test("properties get an enum with their types; an interface without methods still compiles")
    func properties() throws {
        let swift = try SwiftGenerator.generate(files: [("dbus/org.example.Place1.xml", Array(Self.propertiesOnly.utf8))])
        #expect(swift.contains("    package enum Property: String, CaseIterable, Sendable {"))
        #expect(swift.contains("        case latitude = \"Latitude\"\n"))
        #expect(swift.contains("            case .timestamp: \"(tt)\"\n"))
        #expect(swift.contains("    package enum Method: CaseIterable, Sendable {"))
        #expect(!swift.contains("package enum Call"))
    }

    @Test("the typed declarations compile against the DBus module, and read what they write")
    func compilesAgainstDBus() async throws {
        let swift = try SwiftGenerator.generate(files: [
            ("dbus/org.example.Typed1.xml", Array(Self.file.utf8)), ("dbus/org.example.Place1.xml", Array(Self.propertiesOnly.utf8)),
        ])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try swift.write(to: folder.appendingPathComponent("Generated.swift"), atomically: true, encoding: .utf8)
        try """
            import DBus

            func check(file: DBusFileDescriptor) throws {
                let arguments = Typed1Spec.EverythingArguments(
                    appID: "a", aByte: 1, flag: true, small: -2, usmall: 2, number: -3, unsigned: 3, big: -4, ubig: 4, real: 0.5,
                    path: try DBusObjectPath("/a"), sig: try DBusSignature("s"), file: file, anything: .string("v"), bytes: [1, 2],
                    responseIDs: ["x"], hints: ["k": .uint32(1)], names: ["a": "b"], nested: [["c"]],
                    pairs: .array(element: .structure([.string, .string]), []), pair: .structure([.int32(1), .string("s")]),
                    default: "d", valuesValue: "v", flag2: false, value24: 7, badNameEvil: "e")
                let call = try Typed1Spec.Call(.everything, arguments.values)
                guard case .everything(let read) = call, read.bytes == [1, 2], read.hints["k"] == .uint32(1) else { return }
                let message: DBusMessage = try call.message(to: "org.example.Typed", path: try DBusObjectPath("/a"))
                _ = message
                _ = try Typed1Spec.Call(.ping, []).method
                _ = try Typed1Spec.ChangedSignal(requestJSON: "{}").message(path: try DBusObjectPath("/a"))
                _ = try Typed1Spec.EverythingReply([.string("answer")]).answer
                _ = Place1Spec.Property.allCases.map { $0.signature } + [Place1Spec.introspectionXML]
            }
            """.write(to: folder.appendingPathComponent("Check.swift"), atomically: true, encoding: .utf8)
        let swiftc = try ToolRequirement.require("swiftc")
        let pkgConfig = try ToolRequirement.require("pkg-config")
        let flags = try Run(pkgConfig, ["--cflags", "dbus-1"], in: folder)
        try #require(flags.status == 0, "\(flags.standardError)")
        let includes = flags.standardOutput.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
        let build = try Run(swiftc, [
            "-typecheck", "-parse-as-library", "-package-name", "check", "-warnings-as-errors",
            "-I", try Self.modulesFolder().path,
            "-Xcc", "-fmodule-map-file=\(Self.packageRoot.appendingPathComponent("Sources/CDBus/module.modulemap").path)",
        ] + includes + [
            folder.appendingPathComponent("Generated.swift").path, folder.appendingPathComponent("Check.swift").path,
        ], in: folder)
        #expect(build.status == 0, "\(build.standardError)")

        // The same check with one field of the wrong type fails: the check is real.
        let wrong = try String(contentsOf: folder.appendingPathComponent("Check.swift"), encoding: .utf8)
            .replacingOccurrences(of: "aByte: 1,", with: "aByte: \"1\",")
        try wrong.write(to: folder.appendingPathComponent("Check.swift"), atomically: true, encoding: .utf8)
        let broken = try Run(swiftc, [
            "-typecheck", "-parse-as-library", "-package-name", "check", "-I", try Self.modulesFolder().path,
            "-Xcc", "-fmodule-map-file=\(Self.packageRoot.appendingPathComponent("Sources/CDBus/module.modulemap").path)",
        ] + includes + [
            folder.appendingPathComponent("Generated.swift").path, folder.appendingPathComponent("Check.swift").path,
        ], in: folder)
        #expect(broken.status != 0)
        #expect(broken.standardError.contains("UInt8"))
    }

    /// The package's folder, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder the build puts its Swift modules in, beside the running test bundle.
    static func modulesFolder() throws -> URL {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<3 {
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("DBus.swiftmodule").path) { return modules }
            folder = folder.deletingLastPathComponent()
        }
        throw HarnessError.fileNotFound(searched: [URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("Modules").path])
    }
}
