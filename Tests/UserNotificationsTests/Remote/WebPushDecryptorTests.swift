import Crypto
import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// RFC 8291's worked example (section 5, its values in appendix A): the user agent's keys,
/// the authentication secret and the message the application server sent.
enum RFC8291Example {
    static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let message = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A"
        + "_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    static func keys() throws -> WebPushKeys {
        try WebPushKeys(rawPrivateKey: try #require(Base64URL.decode(receiverPrivate)), authSecret: try #require(Base64URL.decode(authSecret)))
    }

    static func bytes() throws -> Data { try #require(Base64URL.decode(message)) }
}

@Suite("Web Push decryption (RFC 8291)")
struct WebPushDecryptorTests {
    @Test("RFC 8291's example decrypts to its plaintext, and its keys give its public key")
    func rfcExample() throws {
        let keys = try RFC8291Example.keys()
        #expect(keys.p256dh == RFC8291Example.receiverPublic)
        #expect(keys.auth == RFC8291Example.authSecret)
        let plaintext = try WebPushDecryptor.decrypt(try RFC8291Example.bytes(), keys: keys)
        #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
    }

    @Test("the Python peer reproduces RFC 8291's message byte for byte from the example's fixed salt and sender key")
    func peerReproducesExample() async throws {
        let message = try await WebPushTestSender.encrypt(
            Data(RFC8291Example.plaintext.utf8), p256dh: RFC8291Example.receiverPublic, auth: RFC8291Example.authSecret,
            options: ["--salt", RFC8291Example.salt, "--sender-private", RFC8291Example.senderPrivate])
        #expect(message == (try RFC8291Example.bytes()))
    }

    @Test("messages the Python peer encrypts for new keys decrypt: one record, padding, several records")
    func peerMessages() async throws {
        let keys = WebPushKeys.generate()
        let json = Data(#"{"aps":{"alert":{"title":"Pushed","body":"from the peer"}},"n":1}"#.utf8)
        for options in [[], ["--pad", "100"], ["--record-size", "40", "--records-of", "20"], ["--records-of", "7", "--record-size", "25", "--pad", "2"]] {
            let message = try await WebPushTestSender.encrypt(json, p256dh: keys.p256dh, auth: keys.auth, options: options)
            #expect(try WebPushDecryptor.decrypt(message, keys: keys) == json, "options \(options)")
        }
    }

    @Test("a message for other keys does not authenticate")
    func otherKeys() throws {
        #expect(throws: WebPushDecryptionError.authenticationFailed(index: 0)) {
            try WebPushDecryptor.decrypt(try RFC8291Example.bytes(), keys: WebPushKeys.generate())
        }
    }

    @Test("every malformed message has its typed error")
    func malformed() throws {
        let keys = try RFC8291Example.keys()
        let good = [UInt8](try RFC8291Example.bytes())
        func decrypt(_ bytes: [UInt8]) throws(WebPushDecryptionError) { _ = try WebPushDecryptor.decrypt(Data(bytes), keys: keys) }

        #expect(throws: WebPushDecryptionError.truncatedHeader(size: 10)) { try decrypt(Array(good.prefix(10))) }
        #expect(throws: WebPushDecryptionError.truncatedHeader(size: 50)) { try decrypt(Array(good.prefix(50))) }
        #expect(throws: WebPushDecryptionError.noRecords) { try decrypt(Array(good.prefix(86))) }
        var small = good
        small[16...19] = [0, 0, 0, 17]
        #expect(throws: WebPushDecryptionError.recordSizeTooSmall(17)) { try decrypt(small) }
        var keyLength = good
        keyLength[20] = 64
        #expect(throws: WebPushDecryptionError.keyIdentifierLength(64)) { try decrypt(keyLength) }
        var notAPoint = good
        notAPoint[22] ^= 0xFF
        #expect(throws: WebPushDecryptionError.invalidSenderKey) { try decrypt(notAPoint) }
        var flipped = good
        flipped[good.count - 1] ^= 1
        #expect(throws: WebPushDecryptionError.authenticationFailed(index: 0)) { try decrypt(flipped) }
        #expect(throws: WebPushDecryptionError.recordTooShort(index: 0, size: 16)) { try decrypt(Array(good.prefix(86 + 16))) }
        let huge = good + [UInt8](repeating: 0, count: WebPushDecryptor.maximumMessageSize)
        #expect(throws: WebPushDecryptionError.messageTooLarge(size: huge.count, limit: WebPushDecryptor.maximumMessageSize)) { try decrypt(huge) }
        var many = good
        many[16...19] = [0, 0, 0, 18]
        many += [UInt8](repeating: 0, count: 18 * 64)
        #expect(throws: WebPushDecryptionError.tooManyRecords(limit: WebPushDecryptor.maximumRecordCount)) { try decrypt(many) }
    }

    @Test("a truncated multi-record message, or records whose delimiters are wrong, is refused")
    func delimiters() async throws {
        let keys = WebPushKeys.generate()
        let plaintext = Data("0123456789abcdefghij".utf8)
        // Two records of 10 bytes: each 10 + 1 delimiter + 16 tag = 27, record size 27.
        let two = [UInt8](try await WebPushTestSender.encrypt(
            plaintext, p256dh: keys.p256dh, auth: keys.auth, options: ["--record-size", "27", "--records-of", "10"]))
        #expect(try WebPushDecryptor.decrypt(Data(two), keys: keys) == plaintext)
        // The first record alone ends with delimiter 1: the message was cut.
        #expect(throws: WebPushDecryptionError.wrongDelimiter(index: 0, found: 1)) {
            try WebPushDecryptor.decrypt(Data(two.prefix(86 + 27)), keys: keys)
        }
        // Hand-made records that are all padding, or end with 2 before the last.
        let salt = Data(repeating: 7, count: 16)
        let sender = P256.KeyAgreement.PrivateKey()
        let (key, nonceBase) = WebPushDecryptor.derive(
            shared: try sender.sharedSecretFromKeyAgreement(with: keys.privateKey.publicKey), authSecret: keys.authSecret,
            receiverKey: keys.publicKey, senderKey: sender.publicKey.x963Representation, salt: salt)
        func message(recordSize: UInt32, _ records: [[UInt8]]) throws -> Data {
            var out = salt + withUnsafeBytes(of: recordSize.bigEndian) { Data($0) } + [65] + sender.publicKey.x963Representation
            for (index, record) in records.enumerated() {
                let box = try AES.GCM.seal(record, using: key, nonce: try AES.GCM.Nonce(data: WebPushDecryptor.nonce(nonceBase, index: index)))
                out += box.ciphertext + box.tag
            }
            return out
        }
        #expect(throws: WebPushDecryptionError.missingDelimiter(index: 0)) {
            try WebPushDecryptor.decrypt(try message(recordSize: 4096, [[0, 0, 0]]), keys: keys)
        }
        #expect(throws: WebPushDecryptionError.wrongDelimiter(index: 0, found: 2)) {
            try WebPushDecryptor.decrypt(try message(recordSize: 20, [[65, 2, 0, 0], [66, 2]]), keys: keys)
        }
        #expect(throws: WebPushDecryptionError.wrongDelimiter(index: 0, found: 3)) {
            try WebPushDecryptor.decrypt(try message(recordSize: 4096, [[65, 3]]), keys: keys)
        }
        #expect(try WebPushDecryptor.decrypt(try message(recordSize: 20, [[65, 1, 0, 0], [66, 2]]), keys: keys) == Data("AB".utf8))
    }

    @Test("base64url round-trips and refuses what is not base64url")
    func base64url() {
        let data = Data((0..<40).map { UInt8($0 * 7 % 256) })
        #expect(Base64URL.decode(Base64URL.encode(data)) == data)
        #expect(!Base64URL.encode(data).contains("="))
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.decode("abcde") == nil)
    }
}
