import DBusInterfaceCodegen
import Foundation
import Testing
import UserNotificationsTesting

@Suite("The D-Bus interface generator")
struct SwiftGeneratorTests {
    static let small = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!-- a comment -->
        <node name="/org/example/Thing">
          <interface name="org.example.Thing1">
            <method name="GetURLFor">
              <arg name="key" type="s" direction="in"/>
              <arg name="options" type="a{sv}"/>
              <arg name="url" type="s" direction="out"/>
            </method>
            <method name="Default"/>
            <signal name="Changed">
              <arg name="what" type="(ias)"/>
            </signal>
            <property name="Size" type="u" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="&quot;false&quot;"/>
            </property>
          </interface>
        </node>

        """

    static func generate(_ text: String, file: String = "org.example.Thing1.xml") throws(InterfaceFileError) -> String {
        try SwiftGenerator.generate(files: [(file, Array(text.utf8))])
    }

    @Test("a small interface file gives its name, its element as written, and each member's signatures")
    func small() throws {
        let interfaces = try IntrospectionReader.interfaces(in: Array(Self.small.utf8), file: "thing.xml")
        let interface = try #require(interfaces.first)
        #expect(interfaces.count == 1)
        #expect(interface.name == "org.example.Thing1" && interface.line == 5 && interface.swiftName == "Thing1Spec")
        #expect(interface.introspectionXML.hasPrefix("  <interface name=\"org.example.Thing1\">\n    <method name=\"GetURLFor\">"))
        #expect(interface.introspectionXML.hasSuffix("    </property>\n  </interface>"))
        #expect(interface.methods.map(\.name) == ["GetURLFor", "Default"])
        #expect(interface.methods.map(\.inputSignature) == ["sa{sv}", ""])
        #expect(interface.methods.map(\.outputSignature) == ["s", ""])
        #expect(interface.signals.map(\.signature) == ["(ias)"])
        #expect(interface.properties == [PropertyDescription(name: "Size", type: "u", access: "read")])

        let swift = try Self.generate(Self.small)
        #expect(swift.contains("package enum Thing1Spec {\n    /// The interface's name.\n    package static let name = \"org.example.Thing1\""))
        #expect(swift.contains("""
                package static let introspectionXML = \"\"\"
                      <interface name="org.example.Thing1">
                        <method name="GetURLFor">
            """))
        #expect(swift.contains("      </interface>\n        \"\"\"\n"))
        #expect(swift.contains("        case getURLFor = \"GetURLFor\"\n"))
        #expect(swift.contains("        case `default` = \"Default\"\n"))
        #expect(swift.contains("            case .getURLFor: \"sa{sv}\"\n            case .`default`: \"\"\n"))
        #expect(swift.contains("            case .getURLFor: \"s\"\n"))
        #expect(swift.contains("        case changed = \"Changed\"\n"))
        #expect(swift.contains("            case .changed: \"(ias)\"\n"))
    }

    @Test("the generated Swift compiles, and its introspection text is the file's element byte for byte")
    func compiles() async throws {
        let tricky = Self.small.replacingOccurrences(of: "&quot;false&quot;", with: "a \\ and &quot;&quot;&quot; and \t")
        let swift = try Self.generate(tricky)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try #require(IntrospectionReader.interfaces(in: Array(tricky.utf8), file: "t").first).introspectionXML
        try swift.write(to: folder.appendingPathComponent("Generated.swift"), atomically: true, encoding: .utf8)
        try """
            @main struct Check {
                static func main() {
                    print(Thing1Spec.introspectionXML, terminator: "")
                    print("|" + Thing1Spec.Method.allCases.map { $0.rawValue + ":" + $0.inputSignature + ":" + $0.outputSignature }.joined(separator: ","), terminator: "")
                }
            }
            """.write(to: folder.appendingPathComponent("Check.swift"), atomically: true, encoding: .utf8)
        let swiftc = try ToolRequirement.require("swiftc")
        let build = try Run(swiftc, [
            "-parse-as-library", "-package-name", "check", "-warnings-as-errors", "-o", folder.appendingPathComponent("check").path,
            folder.appendingPathComponent("Generated.swift").path, folder.appendingPathComponent("Check.swift").path,
        ], in: folder)
        try #require(build.status == 0, "\(build.standardError)")
        let run = try Run(folder.appendingPathComponent("check"), [], in: folder)
        #expect(run.standardOutput == expected + "|GetURLFor:sa{sv}:s,Default::")
    }

    @Test("a problem is reported with the file and the line it is on", arguments: [
        ("<node>\n  <interface name=\"org.example.A\">\n    <method name=\"M\">\n      <arg type=\"a{vs}\"/>\n", 4, "key is not a basic type"),
        ("<node>\n  <interface name=\"org.example.A\">\n    <method name=\"M\"><arg type=\"(\"/></method></interface></node>", 3, "struct"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"ss\"/></method></interface></node>", 2, "more than one complete type"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"k\"/></method></interface></node>", 2, "'k', which is no D-Bus type code"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"{sv}\"/></method></interface></node>", 2, "not an array's element"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"\"/></method></interface></node>", 2, "the type is empty"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"()\"/></method></interface></node>", 2, "empty struct"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg/></method></interface></node>", 2, "<arg> has no type attribute"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"><arg type=\"s\" direction=\"up\"/></method></interface></node>", 2, "direction is \"up\""),
        ("<node>\n<interface name=\"noDots\"/></node>", 2, "is no D-Bus interface name"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"9M\"/></interface></node>", 2, "is no D-Bus member name"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"M\"/>\n<method name=\"M\"/></interface></node>", 3, "described twice"),
        ("<node>\n<interface name=\"org.example.A\">\n<method name=\"M\">\n</interface></node>", 4, "</interface> closes <method>, opened on line 3"),
        ("<node>\n<interface name=\"org.example.A\">\n<method name=\"M\"/>", 2, "<interface> is never closed"),
        ("<node/>\n</node>", 2, "closes an element that was never opened"),
        ("<node>\n<foo/></node>", 2, "<foo> is not part of an introspection file"),
        ("<node>\n<method name=\"M\"/></node>", 2, "<method> cannot stand inside <node>"),
        ("<node>\ntext</node>", 2, "text outside a tag"),
        ("<node>\n<interface name=\"org.example.A\" size=\"1\"/></node>", 2, "has no attribute size"),
        ("<node>\n<interface name=\"a.b\" name=\"c.d\"/></node>", 2, "the attribute name twice"),
        ("<node>\n<interface name=\"a.b&bogus;\"/></node>", 2, "&bogus; is not one of XML's own"),
        ("<node>\n<interface name=\"a.b/></node>", 2, "an attribute value holds <"),
        ("<node>\n<interface name=\"a.b", 2, "an attribute value is never closed"),
        ("<!DOCTYPE node [ <!ENTITY x \"y\"> ]>\n<node/>", 1, "internal subset"),
        ("<node>\n<!-- open", 2, "a comment is never closed"),
        ("<node/>\n<node/>", 2, "after the root element"),
        ("", 1, "no <node> element"),
        ("<node>\n<interface name=\"org.example.A\"><property name=\"P\" type=\"s\" access=\"all\"/></interface></node>", 2, "access \"all\""),
        ("<node>\n<interface name=\"org.example.A\"><signal name=\"S\"><arg type=\"s\" direction=\"in\"/></signal></interface></node>", 2, "no direction but out"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"RawValue\"/></interface></node>", 2, "gives the Swift name rawValue, which cannot be a case"),
        ("<node>\n<interface name=\"org.example.A\"><signal name=\"_\"/></interface></node>", 2, "the member _ gives the Swift name _"),
        ("<node>\n<interface name=\"org.example.A\"><method name=\"Go\"/>\n<method name=\"go\"/></interface></node>", 3, "give the same Swift name go"),
        ("<node>\n<interface name=\"org.example.A\"/>\n<interface name=\"org.other.A\"/></node>", 3, "gives the Swift name ASpec"),
        ("<node>\n</node>", 1, "describes no interface"),
    ] as [(String, Int, String)])
    func problems(text: String, line: Int, message: String) {
        do {
            let swift = try Self.generate(text, file: "dbus/bad.xml")
            Issue.record("no error; generated \(swift.count) characters")
        } catch {
            #expect(error.file == "dbus/bad.xml")
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description == "dbus/bad.xml:\(line): error: \(error.message)")
        }
    }

    @Test("a file given a Swift name gets its enum under that name, so two interfaces ending alike can share a module")
    func swiftNames() throws {
        let gtk = "<node>\n  <interface name=\"org.gtk.Notifications\"><method name=\"AddNotification\"/></interface>\n</node>\n"
        let freedesktop = "<node>\n  <interface name=\"org.freedesktop.Notifications\"><method name=\"Notify\"/></interface>\n</node>\n"
        let files = [("dbus/gtk.xml", Array(gtk.utf8)), ("dbus/fd.xml", Array(freedesktop.utf8))]
        #expect(throws: InterfaceFileError.self) { try SwiftGenerator.generate(files: files) }
        let swift = try SwiftGenerator.generate(files: files, swiftNames: ["dbus/gtk.xml": "GtkNotificationsSpec"])
        #expect(swift.contains("package enum GtkNotificationsSpec {\n    /// The interface's name.\n    package static let name = \"org.gtk.Notifications\""))
        #expect(swift.contains("package enum NotificationsSpec {\n    /// The interface's name.\n    package static let name = \"org.freedesktop.Notifications\""))

        for bad in ["9Spec", "A-Spec", "class", "_", ""] {
            #expect(throws: InterfaceFileError.self, "\(bad)") { try SwiftGenerator.generate(files: files, swiftNames: ["dbus/gtk.xml": bad]) }
        }
        let two = "<node>\n<interface name=\"org.example.A\"/>\n<interface name=\"org.example.B\"/></node>"
        do {
            _ = try SwiftGenerator.generate(files: [("dbus/two.xml", Array(two.utf8))], swiftNames: ["dbus/two.xml": "OneSpec"])
            Issue.record("a Swift name was given to a file of two interfaces")
        } catch {
            #expect(error.line == 3 && error.message.contains("describes 2 interfaces"), "\(error)")
        }
    }

    @Test("type signatures are checked as the D-Bus specification has them")
    func signatures() {
        for good in ["y", "v", "as", "a{sv}", "a{s(iu)}", "(ya(ss)v)", "aah", String(repeating: "a", count: 32) + "s",
                     String(repeating: "(", count: 32) + "s" + String(repeating: ")", count: 32)] {
            #expect(TypeSignature.problemWithSingleType(good) == nil, "\(good)")
        }
        for bad in ["", "a", "a{}", "a{s}", "a{ss", "a{vs}", "a{(s)s}", "a{sss}", "{ss}", "(", ")", "(s", "s)", "()", "sa", "z", "\u{0}",
                    String(repeating: "a", count: 33) + "s", String(repeating: "(", count: 33) + "s" + String(repeating: ")", count: 33),
                    "(" + String(repeating: "s", count: 254) + ")"] {
            #expect(TypeSignature.problemWithSingleType(bad) != nil, "\(bad)")
        }
    }

    @Test("a member's Swift name is its D-Bus name in lower camel case")
    func caseNames() {
        #expect(SwiftGenerator.caseName("GetServerInformation") == "getServerInformation")
        #expect(SwiftGenerator.caseName("URLFor") == "urlFor")
        #expect(SwiftGenerator.caseName("ID") == "id")
        #expect(SwiftGenerator.caseName("already") == "already")
        #expect(SwiftGenerator.caseName("_Private") == "_Private")
    }
}
