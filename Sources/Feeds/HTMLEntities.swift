/// The named HTML entities show notes actually use (the XML five, typography, Latin-1 letters, a few
/// symbols). Unknown names stay as written: nothing is looked up anywhere else.
enum HTMLEntities {
    /// The code point `&name;` stands for, or nil.
    static func value(of name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        // Every name in the table fits in eight bytes: looked up as one number, no String made.
        guard name.count <= 8 else { return nil }
        var key: UInt64 = 0
        for (offset, byte) in name.enumerated() { key |= UInt64(byte) << (8 * UInt64(offset)) }
        // The names that make up nearly all real uses, as cases of a switch (a search); the rest hashed.
        switch key {
        case 0x706d61: return 0x0026  // amp
        case 0x746c: return 0x003C  // lt
        case 0x7467: return 0x003E  // gt
        case 0x746f7571: return 0x0022  // quot
        case 0x736f7061: return 0x0027  // apos
        case 0x7073626e: return 0x00A0  // nbsp
        case 0x687361646e: return 0x2013  // ndash
        case 0x687361646d: return 0x2014  // mdash
        case 0x70696c6c6568: return 0x2026  // hellip
        case 0x6f75717372: return 0x2019  // rsquo
        case 0x6f7571736c: return 0x2018  // lsquo
        case 0x6f7571646c: return 0x201C  // ldquo
        case 0x6f75716472: return 0x201D  // rdquo
        case 0x6f75716462: return 0x201E  // bdquo
        case 0x6c6d7561: return 0x00E4  // auml
        case 0x6c6d756f: return 0x00F6  // ouml
        case 0x6c6d7575: return 0x00FC  // uuml
        case 0x67696c7a73: return 0x00DF  // szlig
        case 0x657475636165: return 0x00E9  // eacute
        case 0x79706f63: return 0x00A9  // copy
        default: return packedTable[key]
        }
    }

    /// `table` keyed by each name's bytes packed into a number, first byte lowest.
    private static let packedTable: [UInt64: UInt32] = Dictionary(uniqueKeysWithValues: table.map { name, value in
        precondition(name.utf8.count <= 8, "an entity name longer than eight bytes: \(name)")
        return (name.utf8.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }, value)
    })

    static let table: [String: UInt32] = [
        "amp": 0x0026, "lt": 0x003C, "gt": 0x003E, "quot": 0x0022, "apos": 0x0027, "nbsp": 0x00A0, "copy": 0x00A9,
        "reg": 0x00AE, "trade": 0x2122, "hellip": 0x2026, "mdash": 0x2014, "ndash": 0x2013, "lsquo": 0x2018,
        "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E, "laquo": 0x00AB,
        "raquo": 0x00BB, "lsaquo": 0x2039, "rsaquo": 0x203A, "bull": 0x2022, "middot": 0x00B7, "euro": 0x20AC,
        "pound": 0x00A3, "yen": 0x00A5, "cent": 0x00A2, "curren": 0x00A4, "deg": 0x00B0, "plusmn": 0x00B1,
        "times": 0x00D7, "divide": 0x00F7, "frac12": 0x00BD, "frac14": 0x00BC, "frac34": 0x00BE, "sup1": 0x00B9,
        "sup2": 0x00B2, "sup3": 0x00B3, "sect": 0x00A7, "para": 0x00B6, "iexcl": 0x00A1, "iquest": 0x00BF,
        "micro": 0x00B5, "not": 0x00AC, "shy": 0x00AD, "macr": 0x00AF, "acute": 0x00B4, "cedil": 0x00B8,
        "ordf": 0x00AA, "ordm": 0x00BA, "uml": 0x00A8, "brvbar": 0x00A6, "dagger": 0x2020, "Dagger": 0x2021,
        "permil": 0x2030, "prime": 0x2032, "Prime": 0x2033, "larr": 0x2190, "rarr": 0x2192, "uarr": 0x2191,
        "darr": 0x2193, "harr": 0x2194, "hearts": 0x2665, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009,
        "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F, "Agrave": 0x00C0, "Aacute": 0x00C1,
        "Acirc": 0x00C2, "Atilde": 0x00C3, "Auml": 0x00C4, "Aring": 0x00C5, "AElig": 0x00C6, "Ccedil": 0x00C7,
        "Egrave": 0x00C8, "Eacute": 0x00C9, "Ecirc": 0x00CA, "Euml": 0x00CB, "Igrave": 0x00CC, "Iacute": 0x00CD,
        "Icirc": 0x00CE, "Iuml": 0x00CF, "ETH": 0x00D0, "Ntilde": 0x00D1, "Ograve": 0x00D2, "Oacute": 0x00D3,
        "Ocirc": 0x00D4, "Otilde": 0x00D5, "Ouml": 0x00D6, "Oslash": 0x00D8, "Ugrave": 0x00D9, "Uacute": 0x00DA,
        "Ucirc": 0x00DB, "Uuml": 0x00DC, "Yacute": 0x00DD, "THORN": 0x00DE, "szlig": 0x00DF, "agrave": 0x00E0,
        "aacute": 0x00E1, "acirc": 0x00E2, "atilde": 0x00E3, "auml": 0x00E4, "aring": 0x00E5, "aelig": 0x00E6,
        "ccedil": 0x00E7, "egrave": 0x00E8, "eacute": 0x00E9, "ecirc": 0x00EA, "euml": 0x00EB, "igrave": 0x00EC,
        "iacute": 0x00ED, "icirc": 0x00EE, "iuml": 0x00EF, "eth": 0x00F0, "ntilde": 0x00F1, "ograve": 0x00F2,
        "oacute": 0x00F3, "ocirc": 0x00F4, "otilde": 0x00F5, "ouml": 0x00F6, "oslash": 0x00F8, "ugrave": 0x00F9,
        "uacute": 0x00FA, "ucirc": 0x00FB, "uuml": 0x00FC, "yacute": 0x00FD, "thorn": 0x00FE, "yuml": 0x00FF,
        "OElig": 0x0152, "oelig": 0x0153, "Scaron": 0x0160, "scaron": 0x0161, "Yuml": 0x0178, "fnof": 0x0192,
        "circ": 0x02C6, "tilde": 0x02DC, "Alpha": 0x0391, "Beta": 0x0392, "Gamma": 0x0393, "Delta": 0x0394,
        "Omega": 0x03A9, "alpha": 0x03B1, "beta": 0x03B2, "gamma": 0x03B3, "delta": 0x03B4, "epsilon": 0x03B5,
        "lambda": 0x03BB, "mu": 0x03BC, "pi": 0x03C0, "sigma": 0x03C3, "omega": 0x03C9, "infin": 0x221E,
        "ne": 0x2260, "le": 0x2264, "ge": 0x2265, "asymp": 0x2248, "minus": 0x2212, "check": 0x2713,
        // The rest of HTML 4's entities (podcastparser decodes exactly these).
        "Chi": 0x03A7, "Epsilon": 0x0395, "Eta": 0x0397, "Iota": 0x0399, "Kappa": 0x039A, "Lambda": 0x039B,
        "Mu": 0x039C, "Nu": 0x039D, "Omicron": 0x039F, "Phi": 0x03A6, "Pi": 0x03A0, "Psi": 0x03A8, "Rho": 0x03A1,
        "Sigma": 0x03A3, "Tau": 0x03A4, "Theta": 0x0398, "Upsilon": 0x03A5, "Xi": 0x039E, "Zeta": 0x0396,
        "alefsym": 0x2135, "and": 0x2227, "ang": 0x2220, "cap": 0x2229, "chi": 0x03C7, "clubs": 0x2663,
        "cong": 0x2245, "crarr": 0x21B5, "cup": 0x222A, "dArr": 0x21D3, "diams": 0x2666, "empty": 0x2205,
        "equiv": 0x2261, "eta": 0x03B7, "exist": 0x2203, "forall": 0x2200, "frasl": 0x2044, "hArr": 0x21D4,
        "image": 0x2111, "int": 0x222B, "iota": 0x03B9, "isin": 0x2208, "kappa": 0x03BA, "lArr": 0x21D0,
        "lang": 0x2329, "lceil": 0x2308, "lfloor": 0x230A, "lowast": 0x2217, "loz": 0x25CA, "nabla": 0x2207,
        "ni": 0x220B, "notin": 0x2209, "nsub": 0x2284, "nu": 0x03BD, "oline": 0x203E, "omicron": 0x03BF,
        "oplus": 0x2295, "or": 0x2228, "otimes": 0x2297, "part": 0x2202, "perp": 0x22A5, "phi": 0x03C6,
        "piv": 0x03D6, "prod": 0x220F, "prop": 0x221D, "psi": 0x03C8, "rArr": 0x21D2, "radic": 0x221A,
        "rang": 0x232A, "rceil": 0x2309, "real": 0x211C, "rfloor": 0x230B, "rho": 0x03C1, "sdot": 0x22C5,
        "sigmaf": 0x03C2, "sim": 0x223C, "spades": 0x2660, "sub": 0x2282, "sube": 0x2286, "sum": 0x2211,
        "sup": 0x2283, "supe": 0x2287, "tau": 0x03C4, "there4": 0x2234, "theta": 0x03B8, "thetasym": 0x03D1,
        "uArr": 0x21D1, "upsih": 0x03D2, "upsilon": 0x03C5, "weierp": 0x2118, "xi": 0x03BE, "zeta": 0x03B6,
        // Punctuation names, known mostly from attempts to hide "javascript:" from filters.
        "colon": 0x003A, "Tab": 0x0009, "NewLine": 0x000A, "lpar": 0x0028, "rpar": 0x0029, "sol": 0x002F,
        "bsol": 0x005C, "period": 0x002E, "comma": 0x002C, "excl": 0x0021, "quest": 0x003F, "num": 0x0023,
        "commat": 0x0040, "lowbar": 0x005F, "semi": 0x003B, "equals": 0x003D, "plus": 0x002B,
        "percnt": 0x0025, "dollar": 0x0024, "ast": 0x002A, "lsqb": 0x005B, "rsqb": 0x005D, "lcub": 0x007B,
        "rcub": 0x007D, "verbar": 0x007C, "grave": 0x0060, "Hat": 0x005E,
    ]

    /// Names that browsers decode even without their `;` in text ("Tom &amp Jerry").
    private static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    /// Whether `&amp;` stands at `index` (a `&`), ending by `end`.
    @inline(__always)
    static func isAmpersandReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, before end: Int) -> Bool {
        index + 5 <= end && bytes[index + 1] == UInt8(ascii: "a") && bytes[index + 2] == UInt8(ascii: "m")
            && bytes[index + 3] == UInt8(ascii: "p") && bytes[index + 4] == UInt8(ascii: ";")
    }

    /// Decodes the character reference at `index` (a `&`): the code point and the index just past it,
    /// or nil when it is not one (the `&` is then text). Numeric references follow HTML: 0, surrogates
    /// and values past U+10FFFF become U+FFFD, 0x80–0x9F are read as Windows-1252. In attribute values
    /// a named reference needs its `;`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, inAttribute: Bool) -> (value: UInt32, end: Int)? {
        let count = bytes.count
        var cursor = index + 1
        // `&amp;` (between an address's query parameters, in text): nearly every reference, read at once.
        if isAmpersandReference(bytes, at: index, before: count) { return (0x26, index + 5) }
        if cursor < count, bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < count && (bytes[cursor] | 0x20) == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < count {
                let byte = bytes[cursor]
                let digit: UInt32
                if isASCIIDigit(byte) { digit = UInt32(byte &- 0x30) }
                else if hex, (byte | 0x20) &- 0x61 < 6 { digit = UInt32((byte | 0x20) &- 0x61 + 10) }
                else { break }
                // Saturate rather than overflow: any value this large is out of range anyway.
                value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
                cursor += 1
            }
            guard cursor > digitsStart else { return nil }
            if cursor < count, bytes[cursor] == UInt8(ascii: ";") { cursor += 1 }
            return (numericValue(value), cursor)
        }
        let nameStart = cursor
        while cursor < count, cursor - nameStart < 32, isASCIILetter(bytes[cursor]) || isASCIIDigit(bytes[cursor]) {
            cursor += 1
        }
        guard cursor > nameStart else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<cursor])
        if cursor < count, bytes[cursor] == UInt8(ascii: ";") {
            return value(of: name).map { ($0, cursor + 1) }
        }
        guard !inAttribute, legacy.contains(String(decoding: name, as: UTF8.self)) else { return nil }
        return value(of: name).map { ($0, cursor) }
    }

    static func numericValue(_ value: UInt32) -> UInt32 {
        switch value {
        case 0, 0xD800...0xDFFF, 0x110000...: return 0xFFFD
        case 0x80...0x9F: return FeedEncoding.windows1252(UInt8(value))
        default: return value
        }
    }

    /// The code point of an HTML 4 entity name (Python's `html.entities.entitydefs`), or nil: what
    /// podcastparser's text conversion decodes.
    static func html4Value(of name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        html4Names.contains(String(decoding: name, as: UTF8.self)) ? value(of: name) : nil
    }

    private static let html4Names: Set<String> = [
        "AElig", "Aacute", "Acirc", "Agrave", "Alpha", "Aring", "Atilde", "Auml", "Beta", "Ccedil", "Chi", "Dagger",
        "Delta", "ETH", "Eacute", "Ecirc", "Egrave", "Epsilon", "Eta", "Euml", "Gamma", "Iacute", "Icirc", "Igrave",
        "Iota", "Iuml", "Kappa", "Lambda", "Mu", "Ntilde", "Nu", "OElig", "Oacute", "Ocirc", "Ograve", "Omega",
        "Omicron", "Oslash", "Otilde", "Ouml", "Phi", "Pi", "Prime", "Psi", "Rho", "Scaron", "Sigma", "THORN", "Tau",
        "Theta", "Uacute", "Ucirc", "Ugrave", "Upsilon", "Uuml", "Xi", "Yacute", "Yuml", "Zeta", "aacute", "acirc",
        "acute", "aelig", "agrave", "alefsym", "alpha", "amp", "and", "ang", "aring", "asymp", "atilde", "auml",
        "bdquo", "beta", "brvbar", "bull", "cap", "ccedil", "cedil", "cent", "chi", "circ", "clubs", "cong", "copy",
        "crarr", "cup", "curren", "dArr", "dagger", "darr", "deg", "delta", "diams", "divide", "eacute", "ecirc",
        "egrave", "empty", "emsp", "ensp", "epsilon", "equiv", "eta", "eth", "euml", "euro", "exist", "fnof",
        "forall", "frac12", "frac14", "frac34", "frasl", "gamma", "ge", "gt", "hArr", "harr", "hearts", "hellip",
        "iacute", "icirc", "iexcl", "igrave", "image", "infin", "int", "iota", "iquest", "isin", "iuml", "kappa",
        "lArr", "lambda", "lang", "laquo", "larr", "lceil", "ldquo", "le", "lfloor", "lowast", "loz", "lrm",
        "lsaquo", "lsquo", "lt", "macr", "mdash", "micro", "middot", "minus", "mu", "nabla", "nbsp", "ndash", "ne",
        "ni", "not", "notin", "nsub", "ntilde", "nu", "oacute", "ocirc", "oelig", "ograve", "oline", "omega",
        "omicron", "oplus", "or", "ordf", "ordm", "oslash", "otilde", "otimes", "ouml", "para", "part", "permil",
        "perp", "phi", "pi", "piv", "plusmn", "pound", "prime", "prod", "prop", "psi", "quot", "rArr", "radic",
        "rang", "raquo", "rarr", "rceil", "rdquo", "real", "reg", "rfloor", "rho", "rlm", "rsaquo", "rsquo", "sbquo",
        "scaron", "sdot", "sect", "shy", "sigma", "sigmaf", "sim", "spades", "sub", "sube", "sum", "sup", "sup1",
        "sup2", "sup3", "supe", "szlig", "tau", "there4", "theta", "thetasym", "thinsp", "thorn", "tilde", "times",
        "trade", "uArr", "uacute", "uarr", "ucirc", "ugrave", "uml", "upsih", "upsilon", "uuml", "weierp", "xi",
        "yacute", "yen", "yuml", "zeta", "zwj", "zwnj",
    ]
}
