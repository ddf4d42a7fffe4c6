// state-file-torture FOLDER [MAX_BYTES [PAUSE_MICROSECONDS]]
//
// Writes successive generations of a state file through the real `StateFile`, forever, each
// padded to a random size up to MAX_BYTES (default 256 KiB), with a random pause of up to
// PAUSE_MICROSECONDS between saves (default none), and says what it does on standard output,
// one line at a time:
//
//     start G        the file held generation G when this process began (0: fresh or set aside)
//     writing N      the save of generation N begins
//     committed N    the save of generation N returned
//
// The chaos tests kill it with SIGKILL at random moments and check that the file then holds
// the last committed generation or the one being written, whole, and loads.
import Foundation
import UserNotifications

/// One generation: its number, and padding of a size that varies, so that a torn write
/// could not pass for a whole file.
struct Generation: Codable, Sendable {
    var generation: Int
    var padding: String
}

/// One line on standard output, in one write(2), so that it is out before the next step.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard (2...4).contains(arguments.count),
      let maximumBytes = arguments.count > 2 ? Int(arguments[2]) : 256 * 1024,
      let maximumPause = arguments.count > 3 ? UInt32(arguments[3]) : 0 else {
    FileHandle.standardError.write(Data("usage: state-file-torture FOLDER [MAX_BYTES [PAUSE_MICROSECONDS]]\n".utf8))
    exit(2)
}
let file = StateFile<Generation>(folder: URL(fileURLWithPath: arguments[1]), name: "torture")
do {
    var next = 1
    switch try file.load() {
    case .loaded(let value):
        next = value.generation + 1
        say("start \(value.generation)")
    case .fresh, .setAside:
        say("start 0")
    }
    var random = SystemRandomNumberGenerator()
    while true {
        say("writing \(next)")
        let padding = String(repeating: "x", count: Int.random(in: 0...maximumBytes, using: &random))
        try file.save(Generation(generation: next, padding: padding))
        say("committed \(next)")
        next += 1
        if maximumPause > 0 { usleep(UInt32.random(in: 0...maximumPause, using: &random)) }
    }
} catch {
    FileHandle.standardError.write(Data("state-file-torture: \(error)\n".utf8))
    exit(1)
}
