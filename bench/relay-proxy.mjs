/*
 * A minimal HTTP proxy for `npm run bench -- export`: CONNECT tunnels, and absolute-form
 * requests (`GET http://host:port/path`) rewritten to origin-form, then the bytes relayed both
 * ways with Node's stream pipes (64 KiB reads). Debian's tinyproxy is the limit of a loopback
 * download (curl through it gets ~0.55x of curl direct; bench/README.md); this one lets the
 * figure measure the app's transfer code behind a proxy, not the proxy. One request per
 * connection (the app's downloads send `Connection: close`). Run in its own process, so the
 * bench can pin it to the sandbox's cores. Prints `PROXY_READY <port>`, then one line per
 * request: `REQUEST <request line>`.
 */
import net from 'node:net'

const MAX_HEAD_BYTES = 64 * 1024

function relay(client, upstream) {
  // Past the head, a failure can only cut the stream: no more answers of our own.
  upstream.removeAllListeners('error')
  upstream.on('error', () => client.destroy())
  client.on('error', () => upstream.destroy())
  upstream.pipe(client)
  client.pipe(upstream)
}

const server = net.createServer((client) => {
  let head = Buffer.alloc(0)
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk])
    const end = head.indexOf('\r\n\r\n')
    if (end === -1) {
      if (head.length > MAX_HEAD_BYTES) client.destroy()
      return
    }
    client.off('data', onData)
    client.pause()
    const text = head.subarray(0, end).toString('latin1')
    const rest = head.subarray(end + 4)
    const [requestLine = '', ...headerLines] = text.split('\r\n')
    const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ')
    console.log(`REQUEST ${requestLine}`)
    if (method === 'CONNECT') {
      const [host, port] = target.split(/:(?=\d+$)/)
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n')
        if (rest.length > 0) upstream.write(rest)
        relay(client, upstream)
        client.resume()
      })
      upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
      return
    }
    let url
    try {
      url = new URL(target)
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
      return
    }
    const upstream = net.connect(Number(url.port || 80), url.hostname, () => {
      const kept = headerLines.filter((line) => !/^proxy-/i.test(line))
      upstream.write(
        [`${method} ${url.pathname}${url.search} ${version}`, ...kept, '', ''].join('\r\n'),
      )
      if (rest.length > 0) upstream.write(rest)
      relay(client, upstream)
      client.resume()
    })
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
  }
  client.on('data', onData)
  client.on('error', () => undefined)
})

server.listen(0, '127.0.0.1', () => console.log(`PROXY_READY ${server.address().port}`))
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0))
