import EarshotCore
import Testing
import TestSupport

@Suite("Pairing: codes, guesses and the throttle")
struct PairingStateTests {
    let address = "10.0.0.7"

    func opened(_ code: String = "123456", at now: Double = 0) -> PairingState {
        var state = PairingState()
        state.open(code: code, secret: String(repeating: "ab", count: 16), now: now)
        return state
    }

    @Test("the right code pairs once; the code is used up")
    func rightCode() {
        var state = opened()
        #expect(state.attempt(.code("123456"), from: address, now: 10) == .paired)
        #expect(state.session == nil)
        #expect(state.attempt(.code("123456"), from: "10.0.0.8", now: 11) == .noCode, "one device per code")
    }

    @Test("the QR code's secret pairs as the code does; a wrong secret counts as a wrong guess")
    func secret() {
        var state = opened()
        #expect(state.attempt(.secret(String(repeating: "cd", count: 16)), from: address, now: 1) == .wrong)
        #expect(state.attempt(.secret(String(repeating: "ab", count: 16)), from: address, now: 2) == .paired)
    }

    @Test("a code is good for two minutes and not a moment longer")
    func expiry() {
        var early = opened(at: 100)
        #expect(early.active(now: 219.9) != nil)
        #expect(early.attempt(.code("123456"), from: address, now: 219.9) == .paired)
        var late = opened(at: 100)
        #expect(late.active(now: 220) == nil)
        #expect(late.attempt(.code("123456"), from: address, now: 220) == .noCode)
    }

    @Test("five wrong guesses from anyone close the code; the right one then fails too")
    func fiveWrong() {
        var state = opened()
        for i in 0..<4 {
            #expect(state.attempt(.code("000000"), from: "10.0.0.\(i)", now: Double(i)) == .wrong)
        }
        #expect(state.attempt(.code("000001"), from: "10.0.0.9", now: 5) == .invalidated)
        #expect(state.session == nil)
        #expect(state.attempt(.code("123456"), from: "10.0.0.10", now: 6) == .noCode)
    }

    @Test("one address: two free tries, then waits that double, and a throttled guess is not even compared")
    func throttle() {
        var state = opened()
        #expect(state.attempt(.code("000000"), from: address, now: 0) == .wrong)
        #expect(state.attempt(.code("000000"), from: address, now: 1) == .wrong)
        #expect(state.attempt(.code("000000"), from: address, now: 2) == .wrong) // earns 5 s
        #expect(state.attempt(.code("123456"), from: address, now: 3) == .throttled(retryAfter: 4))
        #expect(state.session?.wrongGuesses == 3, "a refused attempt costs the code nothing")
        #expect(state.attempt(.code("123456"), from: "10.0.0.99", now: 3) == .paired, "other addresses are not held up")
    }

    @Test("waits: 0, 0, 5, 10, 20 … capped at five minutes; a quiet address starts afresh; success forgets")
    func delays() {
        #expect((1...8).map { PairingThrottle.delay(afterFailures: $0) } == [0, 0, 5, 10, 20, 40, 80, 160])
        #expect(PairingThrottle.delay(afterFailures: 9) == 300)
        #expect(PairingThrottle.delay(afterFailures: 1000) == 300)
        var throttle = PairingThrottle()
        for t in 0..<3 { throttle.failed("a", now: Double(t)) }
        #expect(throttle.retryAfter("a", now: 3) == 4)
        #expect(throttle.retryAfter("a", now: 7) == nil)
        #expect(throttle.failed("a", now: 8) == 10)
        #expect(throttle.failed("a", now: 8 + PairingThrottle.forgetAfter + 1) == 0, "quiet for 15 min: free again")
        throttle.failed("b", now: 0); throttle.failed("b", now: 0)
        throttle.succeeded("b")
        #expect(throttle.failures(of: "b") == 0)
    }

    @Test("no code open: the attempt still counts against the address (a scanner pays too)")
    func noCodeCounts() {
        var state = PairingState()
        for t in 0..<3 { #expect(state.attempt(.code("111111"), from: address, now: Double(t)) == .noCode) }
        if case .throttled = state.attempt(.code("111111"), from: address, now: 3) {} else {
            Issue.record("the fourth probe should be throttled")
        }
    }

    @Test("a flood of addresses cannot grow the throttle past its bound")
    func bounded() {
        var throttle = PairingThrottle()
        for i in 0..<(PairingThrottle.maxAddresses * 3) { throttle.failed("10.\(i / 65536).\(i / 256 % 256).\(i % 256)", now: Double(i) / 1000) }
        #expect((0..<(PairingThrottle.maxAddresses * 3)).filter { throttle.failures(of: "10.\($0 / 65536).\($0 / 256 % 256).\($0 % 256)") > 0 }.count
                <= PairingThrottle.maxAddresses)
    }

    @Test("codes are six digits, uniform enough, zero-padded; typed codes are read leniently")
    func codes() {
        var random = SplitMix64(seed: 7)
        let codes = (0..<2000).map { _ in PairingState.randomCode(using: &random) }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        #expect(Set(codes).count > 1990)
        #expect(Set(codes.map(\.first)).count == 10, "every leading digit, 0 included")
        #expect(PairingState.normalizedCode("123 456") == "123456")
        #expect(PairingState.normalizedCode("123-456") == "123456")
        #expect(PairingState.normalizedCode("12345") == nil)
        #expect(PairingState.normalizedCode("12345a") == nil)
        #expect(PairingState.normalizedCode("１２３４５６") == nil, "full-width digits are not ASCII digits")
        #expect(Hex.isHex(PairingState.randomSecret(using: &random), count: 32))
    }
}

@Suite("Pairing: who may have what")
struct PairingAccessTests {
    @Test("each requester against each kind of route")
    func verdicts() {
        for access in [RouteAccess?.none] + RouteAccess.allCases.map(Optional.some) {
            #expect(PairingAccess.verdict(.host, access: access) == .serve, "host, \(String(describing: access))")
            switch PairingAccess.verdict(.device(3), access: access) {
            case .refuse(let status, _): #expect(access == .host && status == 403)
            case let verdict: #expect(access != .host && verdict == .serve)
            }
            switch PairingAccess.verdict(.stranger, access: access) {
            case .refuse(let status, _): #expect((access == nil || access == .paired || access == .host) && status == 401)
            case .serve: #expect(access == .syncClient, "a stranger is served only sync rows (which ask for credentials)")
            case let verdict: #expect((access == .anyone || access == .pairedPage) && verdict == .pairingOnly)
            }
        }
    }

    @Test("the more open of two accesses")
    func opener() {
        #expect(RouteAccess.host.opener(.anyone) == .anyone)
        #expect(RouteAccess.paired.opener(.host) == .paired)
        #expect(RouteAccess.pairedPage.opener(.paired) == .pairedPage)
        #expect(RouteAccess.syncClient.opener(.pairedPage) == .syncClient)
        #expect(RouteAccess.anyone.opener(.syncClient) == .anyone)
    }
}

@Suite("Device tokens, names and SHA-256")
struct DeviceTokenTests {
    @Test("SHA-256 matches the FIPS 180-4 vectors")
    func vectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Hex.encode(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the padding boundary (55, 56, 63, 64 bytes) against known digests.
        #expect(SHA256.hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(SHA256.hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(SHA256.hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test("tokens are 256 random bits in hex; only that exact shape is read from a cookie")
    func tokens() throws {
        var random = SplitMix64(seed: 1)
        let token = DeviceToken.generate(using: &random)
        #expect(Hex.isHex(token.value, count: 64))
        #expect(token != DeviceToken.generate(using: &random))
        #expect(token.hash == SHA256.hex(token.value) && token.hash != token.value)
        #expect(DeviceToken.fromCookieHeader("a=1; earshot_device=\(token.value); b=2") == token)
        #expect(DeviceToken.fromCookieHeader("earshot_device=\(token.value)") == token)
        #expect(DeviceToken.fromCookieHeader("earshot_device=\(token.value.uppercased())") == nil)
        #expect(DeviceToken.fromCookieHeader("earshot_device=\(token.value)x") == nil)
        #expect(DeviceToken.fromCookieHeader("xearshot_device=\(token.value)") == nil)
        #expect(DeviceToken.fromCookieHeader(nil) == nil)
        let cookie = token.setCookie
        for part in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=34560000"] { #expect(cookie.contains(part), "\(part)") }
        #expect(!cookie.contains("Domain"), "host-only: no other machine of the domain gets it")
    }

    @Test("device names: typed, cleaned, else guessed from the User-Agent")
    func names() {
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
        let firefox = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0"
        #expect(DeviceName.guess(userAgent: android) == "Chrome on Android")
        #expect(DeviceName.guess(userAgent: iphone) == "Safari on iPhone")
        #expect(DeviceName.guess(userAgent: firefox) == "Firefox on Android")
        #expect(DeviceName.guess(userAgent: nil) == "Unnamed device")
        #expect(DeviceName.choose(typed: "  Kitchen\n\tphone \u{202E} ", userAgent: android) == "Kitchen phone")
        #expect(DeviceName.choose(typed: " \u{7} ", userAgent: android) == "Chrome on Android")
        #expect(DeviceName.choose(typed: String(repeating: "x", count: 500), userAgent: nil).count == DeviceName.maxLength)
    }

    @Test("secrets compare equal only when equal")
    func compare() {
        #expect(secretsMatch("123456", "123456"))
        #expect(!secretsMatch("123456", "123457"))
        #expect(!secretsMatch("123456", "12345"))
    }
}
