// @sabaki/sgf + @sabaki/go-board: parse every .sgf file under the given
// directories and replay its main line with go-board's move checks
// (overwrite, suicide, ko).
const fs = require('fs'), path = require('path')
const sgf = require('@sabaki/sgf')
const Board = require('@sabaki/go-board')

function* files(dir) {
  for (const n of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, n)
    const st = fs.statSync(p)
    if (st.isDirectory()) yield* files(p)
    else if (n.toLowerCase().endsWith('.sgf')) yield p
  }
}

const data = []
for (const d of process.argv.slice(2)) for (const p of files(d)) data.push(fs.readFileSync(p))
const start = process.hrtime.bigint()
let games = 0, moves = 0, failed = 0
for (const raw of data) {
  let trees
  try { trees = sgf.parseBuffer(raw) } catch (e) { failed++; continue }
  for (const tree of trees) {
    games++
    try {
      const sz = tree.data.SZ ? parseInt(tree.data.SZ[0]) || 19 : 19
      let board = Board.fromDimensions(sz)
      let node = tree
      while (node) {
        for (const [key, sign] of [['B', 1], ['W', -1]]) {
          if (!node.data[key]) continue
          moves++
          const v = sgf.parseVertex(node.data[key][0])
          try {
            board = board.makeMove(sign, v, {preventOverwrite: true, preventSuicide: true, preventKo: true})
          } catch (e) {
            try { board = board.makeMove(sign, v) } catch (e2) {}
          }
        }
        node = node.children[0]
      }
    } catch (e) { failed++ }
  }
}
const secs = Number(process.hrtime.bigint() - start) / 1e9
console.log(`sabaki parse+replay: ${data.length} files (${failed} failed), ${games} games, ${moves} moves, ${secs.toFixed(3)} s, ${(games / secs).toFixed(0)} games/s`)
