import Foundation

extension QRCode {
    /// The symbol as a standalone SVG: one path of unit squares, dark runs of a row merged, inside
    /// the 4-module quiet zone the standard asks for. Black on white whatever the page's theme
    /// (scanners want dark on light). Holds no text, script or link: only the path.
    public func svg(quietZone: Int = 4) -> String {
        let side = size + 2 * quietZone
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else { column += 1; continue }
                let start = column
                while column < size, isDark(row: row, column: column) { column += 1 }
                path += "M\(start + quietZone) \(row + quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * 8)" height="\(side * 8)" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>
            """
    }

    /// The symbol as a plain PBM image (P1, `scale` pixels per module, quiet zone included): a
    /// format any decoder reads, for tests that scan the code back.
    public func pbm(scale: Int = 4, quietZone: Int = 4) -> String {
        let side = (size + 2 * quietZone) * scale
        var lines = ["P1", "\(side) \(side)"]
        for y in 0..<side {
            let row = y / scale - quietZone
            var line = ""
            line.reserveCapacity(side * 2)
            for x in 0..<side {
                let column = x / scale - quietZone
                let dark = row >= 0 && row < size && column >= 0 && column < size && isDark(row: row, column: column)
                line += dark ? "1 " : "0 "
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
