import Foundation

/// Writes real PNG files for tests: 8-bit RGB or RGBA, no filtering, the image data in stored
/// (uncompressed) deflate blocks, with correct CRCs and Adler-32, so any decoder reads them.
enum PNGFile {
    /// The PNG bytes of a `width` × `height` image whose pixel at (x, y) is `pixel(x, y)`:
    /// three bytes (RGB) or four (RGBA), the same count for every pixel.
    static func encode(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var scanlines: [UInt8] = []
        var channels = 3
        for y in 0..<height {
            scanlines.append(0)  // filter type None
            for x in 0..<width {
                let value = pixel(x, y)
                channels = value.count
                scanlines += value
            }
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", zlibStored(scanlines)) + chunk("IEND", [])
    }

    /// Writes the image to `url`.
    static func write(to url: URL, width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) throws {
        try Data(encode(width: width, height: height, pixel: pixel)).write(to: url)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let isLast: UInt8 = start + count == data.count ? 1 : 0
            let length = UInt16(count)
            output += [isLast, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += data[start..<start + count]
            start += count
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return output + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
