import UserNotificationsTesting

/// Makes the input of one case from the run's seed, the target and the case number alone, so
/// any case can be made again by itself (`--case`): a purely random input, or a seed of the
/// target's corpus through a few mutations (bit and byte flips, the target's own tokens, huge
/// numbers, deep nesting, splices with another seed, cuts).
struct CaseGenerator {
    /// No input is longer: a command-line word is at most 128 KiB on Linux, and every target
    /// reads inputs of that order.
    static let maximumLength = 256 * 1024

    let seeds: [[UInt8]]
    let tokens: [[UInt8]]
    /// The openers repeated by the deep-nesting mutation (`[`, `<`, `{"a":[`, ...).
    let nesting: [[UInt8]]
    let runSeed: UInt64
    let targetName: String

    /// Tokens every target gets: format directives, signs, huge and edge numbers, control
    /// characters, multi-byte UTF-8 and broken UTF-8.
    static let commonTokens: [[UInt8]] = [
        "%", "$", "%@", "%1$@", "%999999999$@", "-", "--", "=", ":", "\\", "\"", "'", "\0", "\n", "\t",
        "0", "-1", "255", "256", "2147483647", "2147483648", "-2147483649", "4294967296",
        "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "99999999999999999999999999999999", "1e308", "1e309", "-0", "nan", "inf", "0x", "0x7fffffffffffffff",
        "é", "\u{FFFD}", "\u{1F600}", "\u{202E}",
    ].map { Array($0.utf8) } + [[0xC3], [0xFF, 0xFE], [0xED, 0xA0, 0x80]]

    func input(forCase number: Int) -> [UInt8] {
        var random = SeededGenerator(seed: runSeed ^ Self.fnv1a(targetName) ^ (UInt64(number) &* 0xD6E8_FEB8_6659_FD93))
        if seeds.isEmpty || random.next() % 10 == 0 { return randomBytes(using: &random) }
        var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
        // A valid seed unchanged now and then checks that the valid path itself holds up.
        if random.next() % 50 == 0 { return bytes }
        // Mostly one or two changes, so that most inputs stay close to valid and get past the
        // first checks; now and then up to eight.
        let mutations = 1 + min(7, (random.next() | 1 << 63).trailingZeroBitCount)
        for _ in 0..<mutations { mutate(&bytes, using: &random) }
        if bytes.count > Self.maximumLength { bytes.removeLast(bytes.count - Self.maximumLength) }
        return bytes
    }

    private func randomBytes(using random: inout SeededGenerator) -> [UInt8] {
        let length = random.next() % 8 == 0 ? Int(random.next() % 4096) : Int(random.next() % 64)
        return (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    private func mutate(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 11 {
        case 0 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] ^= UInt8(1) << (random.next() % 8)
        case 1 where !bytes.isEmpty:
            bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            let count = 1 + Int(random.next() % 8)
            bytes.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: position)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, position + 1 + Int(random.next() % 16))
            bytes.removeSubrange(min(position, bytes.count - 1)..<end)
        case 4, 5:
            let pool = random.next() % 3 == 0 ? Self.commonTokens : tokens
            guard !pool.isEmpty else { return }
            bytes.insert(contentsOf: pool[Int(random.next() % UInt64(pool.count))], at: position)
        case 6 where !nesting.isEmpty:
            bytes.insert(contentsOf: deepNesting(using: &random), at: position)
        case 7 where !seeds.isEmpty:
            let other = seeds[Int(random.next() % UInt64(seeds.count))]
            let start = other.isEmpty ? 0 : Int(random.next() % UInt64(other.count))
            bytes.insert(contentsOf: other[start...], at: position)
        case 8:
            bytes.removeLast(bytes.count - position)
        case 9 where bytes.count >= 4:
            overwriteWord(&bytes, using: &random)
        case 10 where !bytes.isEmpty:
            let start = min(position, bytes.count - 1)
            let end = min(bytes.count, start + 1 + Int(random.next() % 64))
            bytes.insert(contentsOf: bytes[start..<end], at: start)
        default:
            break
        }
    }

    /// An opener repeated 2 to 100,000 times (spread over the orders of magnitude), then
    /// sometimes its closers, so both bounded and unbounded depth are tried.
    private func deepNesting(using random: inout SeededGenerator) -> [UInt8] {
        let opener = nesting[Int(random.next() % UInt64(nesting.count))]
        let depth = Int(powerOfTen(random.next() % 6)) * (1 + Int(random.next() % 9)) / 9 + 2
        var result: [UInt8] = []
        result.reserveCapacity(opener.count * depth)
        for _ in 0..<depth { result.append(contentsOf: opener) }
        return result
    }

    private func powerOfTen(_ exponent: UInt64) -> UInt64 {
        (0..<exponent).reduce(UInt64(1)) { value, _ in value * 10 }
    }

    /// A 32-bit word at an aligned place set to an edge value, in either byte order: the
    /// lengths and counts of binary formats.
    private func overwriteWord(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        let edges: [UInt32] = [0, 1, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x400_0001, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
        var value = edges[Int(random.next() % UInt64(edges.count))]
        if random.next() % 2 == 0 { value = value.byteSwapped }
        let offset = Int(random.next() % UInt64(bytes.count / 4)) * 4
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// FNV-1a of the name: a stable hash (Swift's `Hasher` changes from run to run).
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
