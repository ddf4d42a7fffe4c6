import ArgumentParser
import NotifyCLI

extension FuzzTarget {
    /// `QuickArguments.parse`: a `notify` command line (words split at NUL). Whatever it
    /// accepts, swift-argument-parser must read to the same options: it is the reference the
    /// fast path stands in for. Only up to ``referenceWords`` words are compared: the
    /// reference takes time quadratic in the repeats of an option (seconds for a few thousand
    /// `-A`), so longer lines would measure it, not the fast path.
    static let arguments = FuzzTarget(
        name: "arguments",
        seeds: [
            ["Hello"],
            ["Summary", "Body text\\nwith an escape"],
            ["-u", "critical", "-t", "5000", "-a", "Mail", "-i", "mail-unread", "-c", "email.arrived", "New mail", "From Ann"],
            ["--urgency=low", "--expire-time=0", "--app-name=App", "-e", "-p", "Title"],
            ["-h", "int:x:1", "--hint=variant:y:<int64 3>", "-A", "ok=OK", "--action=no=No", "-w", "Choose"],
            ["--reply", "Type here", "--timeout", "2.5", "--image", "/tmp/a.png", "--sound", "bell", "--id", "build", "Done"],
            ["-r", "42", "--replace-id=7", "--json", "--no-fallback", "Updated", "body"],
            ["--version"],
            ["-v"],
        ].map(\.joinedInput),
        // Every spelling of every option (and `--long=`), every subcommand's word, and words
        // on the edges of what the parsers read.
        tokens: (NotifyOption.allCases.flatMap { $0.specification.spellings + ["--\($0.specification.long)="] } + NotifySubcommand.allCases.map(\.rawValue) + [
            NotifySubcommand.helpWord, "-pw", "-ep", "--", "-", "--help", "-2147483648", "2147483648", "nan", "-inf", "0x10",
            "1e5", " 5", "5 ", "+5", "=", "==",
        ]).map { Array($0.utf8) },
        nesting: [[0], Array("-h\0".utf8), Array("-A\0a=b\0".utf8)],
        run: { bytes throws(FuzzFinding) in
            let words = bytes.words
            guard let quick = QuickArguments.parse(words) else {
                return .refused
            }
            // notify refuses longer command lines before either parser reads them.
            guard words.count <= NotifyCommand.maximumArguments else { return .accepted }
            let reference: NotifyOptions
            do {
                guard let command = try NotifyCommand.parseAsRoot(words) as? NotifyCommand else {
                    throw FuzzFinding(description: "swift-argument-parser read a subcommand from \(words)")
                }
                reference = command.options
            } catch let finding as FuzzFinding {
                throw finding
            } catch {
                throw FuzzFinding(description: "the fast path accepted \(words), swift-argument-parser refused it: \(error)")
            }
            guard quick == reference else {
                throw FuzzFinding(description: "the parsers disagree on \(words):\n  fast path: \(quick)\n  reference: \(reference)")
            }
            return .accepted
        }
    )
}
