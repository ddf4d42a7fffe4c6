import Crypto
import Foundation
import UserNotifications

extension FuzzTarget {
    /// `WebPushDecryptor.decrypt`: a pushed message as a distributor hands it over, for fixed
    /// keys (RFC 8291's example's). Seeds are the RFC's message and messages sealed here with
    /// one record, padding and several records, so that mutations reach every header field.
    static func webPush() -> FuzzTarget {
        // RFC 8291's example receiver: a valid scalar and a 16-byte secret.
        let keys = try! WebPushKeys(
            rawPrivateKey: Base64URL.decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")!,
            authSecret: Base64URL.decode("BTBZMqHH6r4Tts7J_aSIgg")!)
        let rfcMessage = Base64URL.decode(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A"
                + "_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")!
        let seeds = [
            [UInt8](rfcMessage),
            seal(keys: keys, recordSize: 4096, records: [Array(#"{"aps":{"alert":"Hi"}}"#.utf8) + [2]]),
            seal(keys: keys, recordSize: 4096, records: [Array("padded".utf8) + [2] + [UInt8](repeating: 0, count: 40)]),
            seal(keys: keys, recordSize: 24, records: [Array("abcdefg".utf8) + [1], Array("hij".utf8) + [1, 0, 0, 0, 0], [0x6B, 2]]),
        ]
        return FuzzTarget(
            name: "web-push",
            seeds: seeds,
            tokens: [[0, 0, 0, 0], [0, 0, 0, 18], [255, 255, 255, 255], [65], [0], [4], [1], [2], [UInt8](repeating: 0, count: 16)],
            nesting: [[0, 0, 16, 0, 65]],
            run: { bytes throws(FuzzFinding) in
                do {
                    let plaintext = try WebPushDecryptor.decrypt(Data(bytes), keys: keys)
                    guard plaintext.count < bytes.count else {
                        throw FuzzFinding(description: "\(plaintext.count) bytes of plaintext from \(bytes.count) of message")
                    }
                    return .accepted
                } catch let finding as FuzzFinding {
                    throw finding
                } catch {
                    return .refused
                }
            })
    }

    /// A message sealed for `keys` with a fresh sender key: `records` are the padded
    /// plaintexts (data, delimiter, zeros).
    private static func seal(keys: WebPushKeys, recordSize: UInt32, records: [[UInt8]]) -> [UInt8] {
        let sender = P256.KeyAgreement.PrivateKey()
        let salt = Data((0..<16).map { UInt8($0 * 11) })
        let (key, nonceBase) = WebPushDecryptor.derive(
            shared: try! sender.sharedSecretFromKeyAgreement(with: keys.privateKey.publicKey), authSecret: keys.authSecret,
            receiverKey: keys.publicKey, senderKey: sender.publicKey.x963Representation, salt: salt)
        var out = [UInt8](salt) + withUnsafeBytes(of: recordSize.bigEndian) { [UInt8]($0) } + [65]
            + [UInt8](sender.publicKey.x963Representation)
        for (index, record) in records.enumerated() {
            let box = try! AES.GCM.seal(record, using: key, nonce: try! AES.GCM.Nonce(data: WebPushDecryptor.nonce(nonceBase, index: index)))
            out += [UInt8](box.ciphertext) + [UInt8](box.tag)
        }
        return out
    }

    /// A decrypted push message → ``RemoteNotificationPayload`` → the request it is
    /// delivered as → the agent's encoding of that request and back: an accepted payload must
    /// give a push-triggered request that survives the trip.
    static let pushRequest = FuzzTarget(
        name: "push-request",
        seeds: [
            #"{"aps":{"alert":"Hello"}}"#,
            #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"badge":3,"sound":"default","category":"C","thread-id":"t"},"k":[1,"2"]}"#,
            #"{"aps":{"alert":{"title-loc-key":"%@ and %@","title-loc-args":["a","b"]},"mutable-content":1,"interruption-level":"critical","sound":{"critical":1,"volume":0.5}}}"#,
            #"{"aps":{"alert":"x","target-content-id":"id","relevance-score":2.5},"nested":{"a":{"b":{"c":null}}}}"#,
        ].map { Array($0.utf8) },
        tokens: [
            "{", "}", "[", "]", ",", ":", "\"aps\"", "\"alert\"", "\"badge\"", "\"sound\"", "\"mutable-content\"", "1", "-1e308",
            "null", "\"\\u0000\"", "\"%n%n\"", "true",
        ].map { Array($0.utf8) },
        nesting: ["[", "{\"a\":", "{\"aps\":{\"alert\":"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            guard let payload = try? RemoteNotificationPayload(json: Data(bytes)) else { return .refused }
            let request = payload.request(identifier: "push")
            guard request.trigger is UNPushNotificationTrigger else { throw FuzzFinding(description: "the request has no push trigger") }
            let again: UNNotificationRequest
            do {
                again = try AgentPayload.request(from: AgentPayload.encode(request))
            } catch {
                throw FuzzFinding(description: "a pushed request does not survive the agent's encoding: \(error)")
            }
            guard again.identifier == "push", again.trigger is UNPushNotificationTrigger, again.content.title == request.content.title,
                  again.content.body == request.content.body else {
                throw FuzzFinding(description: "the pushed request changed on its way through the agent's encoding")
            }
            return .accepted
        })
}
