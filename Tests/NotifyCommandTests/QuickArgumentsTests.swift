import ArgumentParser
import Testing
@testable import NotifyCLI

/// `QuickArguments` is a fast path in front of swift-argument-parser: whatever it accepts must
/// read exactly as swift-argument-parser reads it, and what it cannot read must go there.
@Suite("notify: the start-up fast path reads command lines as swift-argument-parser does")
struct QuickArgumentsTests {
    @Test("the fast path knows every subcommand's word")
    func subcommandWords() {
        for subcommand in NotifySubcommand.allCases {
            #expect(subcommand.command.configuration.commandName == "notify \(subcommand.rawValue)")
            #expect(QuickArguments.parse([subcommand.rawValue]) == nil)
        }
    }

    /// The options swift-argument-parser reads, or `nil` when it refuses the command line.
    static func reference(_ arguments: [String]) -> NotifyOptions? {
        (try? NotifyCommand.parseAsRoot(arguments) as? NotifyCommand)?.options
    }

    @Test("every notify-send option, in both spellings, reads the same", arguments: [
        ["summary"],
        ["summary", "body"],
        ["-u", "critical", "-t", "5000", "-a", "App", "-i", "dialog-information", "-c", "im.received,im", "s", "b"],
        ["--urgency", "low", "--expire-time", "0", "--app-name", "App", "--icon", "/tmp/x.png", "--category", "email", "s"],
        ["--urgency=normal", "--expire-time=-1", "--app-name=A B", "--icon=x", "s", "b"],
        ["-h", "int:x:1", "-h", "string:y:two words", "--hint", "boolean:z:true", "--hint=double:d:1.5", "s"],
        ["-p", "-r", "42", "s"], ["--print-id", "--replace-id", "7", "s"], ["--replace-id=7", "s"],
        ["-w", "s"], ["--wait", "s"], ["-e", "s"], ["--transient", "s"], ["-v"], ["--version"],
        ["-A", "ok=OK", "-A", "Cancel", "--action", "later=Later", "--action=x=Y", "s"],
        ["s", "-u", "low", "b"], ["-u", "low", "-u", "critical", "s"],
        ["--reply", "Type…", "--timeout", "2.5", "--image", "a.png", "--sound", "bell", "--id", "build", "--json", "--no-fallback", "s"],
        ["--timeout=10", "--id=x", "s", "b"],
        ["-h", "variant:v:<int32 5>", "s"], ["", ""], ["s", ""],
    ])
    func sameAsArgumentParser(_ arguments: [String]) throws {
        let quick = try #require(QuickArguments.parse(arguments), "the fast path should read \(arguments)")
        let reference = try #require(Self.reference(arguments), "swift-argument-parser refused \(arguments)")
        #expect(quick == reference)
    }

    @Test("what the fast path leaves to swift-argument-parser", arguments: [
        ["--help"], ["-?"], ["help"], ["info"], ["close", "3"], ["pending"], ["cancel", "--all"], ["push", "-"],
        ["--in", "10m", "s"], ["--at", "18:30", "s"], ["--every", "1h", "s"],
        ["-pw", "s"], ["-ulow", "s"], ["--", "info"], ["-t", "-1", "s"], ["-t", "x", "s"], ["-r", "99999999999", "s"],
        ["--timeout", "soon", "s"], ["--wait=yes", "s"], ["--unknown", "s"], ["-x", "s"], ["a", "b", "c"], ["-u"],
        ["--generate-completion-script", "bash"], ["-5"], ["--icon=", "s"],
    ])
    func leftToArgumentParser(_ arguments: [String]) {
        #expect(QuickArguments.parse(arguments) == nil)
    }

    @Test("random command lines: accepted ones read the same as swift-argument-parser")
    func randomCommandLines() throws {
        let pieces: [[String]] = [
            ["-u", "low"], ["--urgency=critical"], ["-t", "100"], ["--expire-time", "-5"], ["-a", "App"], ["-i", "x"],
            ["-c", "c"], ["-h", "int:a:1"], ["--hint", "string:b:x"], ["-p"], ["-r", "3"], ["-w"], ["-A", "k=L"],
            ["--action", "L"], ["-e"], ["-v"], ["--reply", "r"], ["--timeout", "1"], ["--image", "i.png"],
            ["--sound", "s"], ["--id", "n"], ["--json"], ["--no-fallback"], ["word"], ["two words"], ["-"], ["-pw"],
            ["--in", "5s"], ["info"], ["--bogus"],
        ]
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for _ in 0..<600 {
            let count = Int.random(in: 0...6, using: &generator)
            let arguments = (0..<count).flatMap { _ in pieces.randomElement(using: &generator)! }
            guard let quick = QuickArguments.parse(arguments) else { continue }
            accepted += 1
            let reference = try #require(Self.reference(arguments), "the fast path accepted \(arguments), swift-argument-parser refused it")
            #expect(quick == reference, "\(arguments)")
        }
        // The fast path is used for a good share of these shapes, or the test says nothing.
        #expect(accepted > 60)
    }
}
