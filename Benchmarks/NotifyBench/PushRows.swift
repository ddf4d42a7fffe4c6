import Foundation
import UserNotifications

/// The remote notification row: `push-decrypt`, the cost of decrypting one Web Push message
/// (RFC 8291's example: ECDH on P-256, two HKDF derivations, one AES-128-GCM record) and
/// reading its plaintext as a payload would be read, without the bus.
enum PushRows {
    static func decrypt(_ options: Options) throws {
        let keys = try WebPushKeys(
            rawPrivateKey: Base64URL.decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94") ?? Data(),
            authSecret: Base64URL.decode("BTBZMqHH6r4Tts7J_aSIgg") ?? Data())
        let message = Base64URL.decode(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A"
                + "_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN") ?? Data()
        let n = options.count
        var samples: [Sample] = []
        var bytes = 0
        for _ in 0..<options.samples {
            let cpu = cpuTime()
            let start = ContinuousClock.now
            for _ in 0..<n { bytes &+= try WebPushDecryptor.decrypt(message, keys: keys).count }
            let elapsed = ContinuousClock.now - start
            samples.append(Sample(seconds: seconds(elapsed), cpuSeconds: cpuTime() - cpu))
        }
        guard bytes == 41 * n * options.samples else { throw BenchError("push-decrypt: \(bytes) plaintext bytes") }
        report("push-decrypt", count: n, samples: samples)
    }
}
