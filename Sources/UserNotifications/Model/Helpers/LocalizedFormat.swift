import Foundation

/// Fills a localized format with stored arguments, each converted to what its directive asks
/// for, so that no translation can crash the app when the text is looked up at delivery:
///
/// - `%@` (and `%s`, `%S`, `%n`, rewritten as `%@`) gets the argument's text, as Apple's
///   object arguments print (`%@` with `3` gives `"3"`);
/// - integer directives (`%d`, `%ld`, `%u`, `%x`, `%c`, ..., and `*` widths) get an integer;
/// - floating-point directives (`%f`, `%g`, `%e`, `%a`) get a `Double`;
/// - a directive past the last argument gets an empty or zero value.
///
/// Positional directives (`%2$@`) are honoured, as translations reorder them. A format comes
/// from a payload or a translation, so Foundation never sees a position: each directive is
/// rewritten without it and handed its own value, in order. Foundation would otherwise
/// allocate for the highest position named (`%9223372036854775807$@` aborts), and read the
/// wrong argument, or an integer as an object, when a position is skipped. A position past
/// the arguments, 0, or too big for an `Int` gets an empty or zero value.
///
/// A width or precision above ``maximumWidth``, written or taken by `*`, is lowered to it:
/// `%2147483647d` would crash Foundation, and smaller ones ask for as many bytes.
enum LocalizedFormat {
    /// The widest padding and the longest precision a directive gets.
    static let maximumWidth = 1024

    /// The most directives a format has filled; a `%` past them is printed as it stands. No
    /// translation has this many, and each may pad to ``maximumWidth``: Foundation crashed on
    /// 5,000 `%d` and took most of a second on a few hundred padded ones.
    static let maximumDirectives = 128

    private enum Need {
        case text
        case signed
        case unsigned
        case floating
        /// A `*` width or precision.
        case width
    }

    /// One value of the rewritten format: the argument it takes (`nil`: none) and its form.
    private struct Slot {
        let index: Int?
        let need: Need
    }

    /// A run of the format: text printed as it stands, or one directive with the values it
    /// takes (its `*` widths, then its own).
    private enum Piece {
        case text(String)
        case directive(String, [Slot])
    }

    static func format(_ format: String, arguments: [DeferredLocalization.Argument]) -> String {
        var output = ""
        for piece in scan(format) {
            switch piece {
            case .text(let text):
                output += text
            case .directive(let directive, let slots):
                let values: [any CVarArg] = slots.map { slot in
                    let argument = slot.index.flatMap { arguments.indices.contains($0) ? arguments[$0] : nil }
                    return convert(argument, to: slot.need)
                }
                output += String(format: directive, arguments: values)
            }
        }
        return output
    }

    /// The format as text and directives; Foundation is handed one directive at a time, so it
    /// never reads the text (a format of 100,000 `%%` cost it half a second).
    ///
    /// Each directive is read by the grammar `%[position$][flags][width][.precision][length]
    /// conversion`; one that does not follow it (a lone `%` at the end, `%hh3.1`, an unknown
    /// conversion), or comes past ``maximumDirectives``, is text, and takes no value; `%%`
    /// (with flags or not) is a percent sign. Positions are removed, `%s`, `%S` and `%n`
    /// become `%@`, widths and precisions are capped, the grouping flag `'` is dropped
    /// (Foundation on Linux misreads it), integers are always passed as 64-bit values, and a
    /// floating-point length (`%Lf`) is dropped.
    private static func scan(_ format: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = String.UnicodeScalarView()
        var directives = 0
        var next = 0
        let scalars = Array(format.unicodeScalars)
        var position = 0
        while position < scalars.count {
            let scalar = scalars[position]
            position += 1
            guard scalar == "%" else {
                text.append(scalar)
                continue
            }
            guard directives < maximumDirectives, let directive = Directive(reading: scalars, at: &position) else {
                text.append(scalar)
                continue
            }
            guard let need = directive.need else {
                text.append("%")
                continue
            }
            var slots: [Slot] = []
            for _ in 0..<directive.starWidths {
                slots.append(Slot(index: next, need: .width))
                next += 1
            }
            if let index = directive.position {
                slots.append(Slot(index: index, need: need))
            } else {
                slots.append(Slot(index: next, need: need))
                next += 1
            }
            directives += 1
            if !text.isEmpty { pieces.append(.text(String(text))) }
            text = String.UnicodeScalarView()
            pieces.append(.directive(directive.rewritten, slots))
        }
        if !text.isEmpty { pieces.append(.text(String(text))) }
        return pieces
    }

    /// One directive, read after its `%`.
    private struct Directive {
        /// The argument named by a `N$` position (`nil` without one); past the arguments,
        /// 0 or too big for an `Int` it is an index no argument has.
        var position: Int?
        var flags = ""
        var width = ""
        var precision: String?
        var length = ""
        var conversion: Unicode.Scalar = "@"
        /// How many `*` the width and precision take.
        var starWidths = 0

        /// Reads the directive that starts at `start` in `scalars`; on success `start` moves
        /// past it, on failure it stays.
        init?(reading scalars: [Unicode.Scalar], at start: inout Int) {
            var cursor = start
            func peek() -> Unicode.Scalar? { cursor < scalars.count ? scalars[cursor] : nil }
            let digits = Self.digits(scalars, &cursor)
            if peek() == "$", !digits.isEmpty {
                cursor += 1
                position = Int(digits).map { $0 > 0 ? $0 - 1 : Int.max } ?? Int.max
            } else {
                cursor = start
            }
            while let flag = peek(), "-+ #0'".unicodeScalars.contains(flag) {
                cursor += 1
                if flag != "'" { flags.unicodeScalars.append(flag) }
            }
            width = Self.widthOrStar(scalars, &cursor, stars: &starWidths)
            if peek() == "." {
                cursor += 1
                precision = Self.widthOrStar(scalars, &cursor, stars: &starWidths)
            }
            if let modifier = peek(), "hlqLzjt".unicodeScalars.contains(modifier) {
                cursor += 1
                length = String(modifier)
                if (modifier == "h" || modifier == "l"), peek() == modifier {
                    cursor += 1
                    length += String(modifier)
                }
            }
            guard let conversion = peek(), "diouxXfFeEgGaAcCsSpn@%".unicodeScalars.contains(conversion) else {
                return nil
            }
            self.conversion = conversion
            start = cursor + 1
        }

        /// What the directive asks for; `nil` for `%%` (with flags or not), which takes none.
        var need: Need? {
            switch conversion {
            case "%": nil
            case "d", "i", "c", "C": .signed
            case "u", "o", "x", "X", "p": .unsigned
            case "f", "F", "e", "E", "g", "G", "a", "A": .floating
            default: .text
            }
        }

        /// The directive as Foundation gets it.
        var rewritten: String {
            let size = [width, precision.map { "." + $0 } ?? ""].joined()
            switch need {
            case .text: return "%" + flags + size + "@"
            case .floating: return "%" + flags + size + String(conversion)
            case .signed where conversion == "c" || conversion == "C",
                 .unsigned where conversion == "p":
                return "%" + flags + size + String(conversion)
            default:
                let integerLength = length == "h" || length == "hh" ? length : "l"
                return "%" + flags + size + integerLength + String(conversion)
            }
        }

        private static func digits(_ scalars: [Unicode.Scalar], _ cursor: inout Int) -> String {
            var digits = ""
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                digits.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            return digits
        }

        /// A width or precision: `*` (counted in `stars`) or digits capped at ``maximumWidth``.
        private static func widthOrStar(_ scalars: [Unicode.Scalar], _ cursor: inout Int, stars: inout Int) -> String {
            if cursor < scalars.count, scalars[cursor] == "*" {
                cursor += 1
                stars += 1
                return "*"
            }
            let written = digits(scalars, &cursor)
            guard !written.isEmpty, Int(written).map({ $0 > maximumWidth }) ?? true else { return written }
            return String(maximumWidth)
        }
    }

    private static func convert(_ argument: DeferredLocalization.Argument?, to need: Need) -> any CVarArg {
        switch need {
        case .text: argument.map(text) ?? ""
        case .signed: argument.map(signed) ?? 0
        case .unsigned: argument.map { UInt(bitPattern: signed($0)) } ?? UInt(0)
        case .floating: argument.map(floating) ?? 0.0
        case .width: argument.map { min(max(signed($0), -maximumWidth), maximumWidth) } ?? 0
        }
    }

    private static func text(_ argument: DeferredLocalization.Argument) -> String {
        switch argument {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .unsignedInteger(let integer): String(integer)
        case .double(let double): "\(double)"
        }
    }

    private static func signed(_ argument: DeferredLocalization.Argument) -> Int {
        switch argument {
        case .string(let string): Int(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case .integer(let integer): integer
        case .unsignedInteger(let integer): Int(truncatingIfNeeded: integer)
        case .double(let double): double.isFinite ? Int(exactly: double.rounded(.towardZero)) ?? 0 : 0
        }
    }

    private static func floating(_ argument: DeferredLocalization.Argument) -> Double {
        switch argument {
        case .string(let string): Double(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case .integer(let integer): Double(integer)
        case .unsignedInteger(let integer): Double(integer)
        case .double(let double): double
        }
    }
}
