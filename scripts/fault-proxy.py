#!/usr/bin/env python3
"""An HTTP proxy in front of a real server that misbehaves on request, for Reel's stream-cache
tests and benchmarks. Usage: fault-proxy.py PORT UPSTREAM_PORT CONTROL_JSON STATS_JSON

The control file is read at each request (write it atomically); every key is optional:
  latency_ms     delay before each response
  rate           body bytes per second, per response (a slow link, or a trickle)
  drop_after     close the connection after this many body bytes...
  drop_count     ...for this many responses (default: all)
  stall_at       stop sending at this byte offset of the resource (when a response crosses it)...
  stall_seconds  ...for this long, then go on
  stall_count    ...for this many responses (default 1)
  fail_status    answer this status instead of proxying...
  fail_count     ...for this many requests (default: all)
  refuse         close each connection without answering
  redirect       {"/path": "location"}: answer 302 to that location for that path
A changed control file starts the counts again. The stats file holds the requests, the body
bytes sent, and each response's Range and byte count."""
import http.client, http.server, json, os, socketserver, sys, threading, time

port, upstream, control_path, stats_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
lock = threading.Lock()
state = {"control": None, "drops": 0, "stalls": 0, "fails": 0}
stats = {"requests": 0, "bytes": 0, "responses": []}


def control():
    try:
        with open(control_path) as f:
            text = f.read()
    except OSError:
        text = "{}"
    with lock:
        if text != state["control"]:
            state.update(control=text, drops=0, stalls=0, fails=0)
    try:
        return json.loads(text or "{}")
    except ValueError:
        return {}


def take(kind, limit):
    with lock:
        if limit is not None and state[kind] >= limit:
            return False
        state[kind] += 1
        return True


def save_stats():
    with lock:
        text = json.dumps(stats)
    tmp = stats_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, stats_path)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.proxy(head=True)

    def do_GET(self):
        self.proxy(head=False)

    def proxy(self, head):
        c = control()
        with lock:
            stats["requests"] += 1
            record = {"path": self.path, "range": self.headers.get("Range"), "bytes": 0}
            stats["responses"].append(record)
        save_stats()
        if c.get("refuse"):
            self.close_connection = True
            return
        if c.get("latency_ms"):
            time.sleep(c["latency_ms"] / 1000)
        target = (c.get("redirect") or {}).get(self.path)
        if target:
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        if c.get("fail_status") and take("fails", c.get("fail_count")):
            body = b"failure on purpose\n"
            self.send_response(int(c["fail_status"]))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if not head:
                self.wfile.write(body)
            self.close_connection = True
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("range", "if-range", "user-agent")}
        conn = http.client.HTTPConnection("127.0.0.1", upstream, timeout=30)
        conn.request("HEAD" if head else "GET", self.path, headers=headers)
        resp = conn.getresponse()
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "keep-alive", "server", "date"):
                self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if head:
            conn.close()
            return
        drop = c.get("drop_after") if c.get("drop_after") is not None and take("drops", c.get("drop_count")) else None
        offset = 0
        content_range = resp.getheader("Content-Range") or ""
        if content_range.startswith("bytes ") and "-" in content_range:
            offset = int(content_range[6:].split("-")[0])
        stall = c.get("stall_at")
        if stall is not None and (stall < offset or not take("stalls", c.get("stall_count", 1))):
            stall = None
        rate = c.get("rate")
        sent, started, unsaved = 0, time.monotonic(), 0
        try:
            while True:
                chunk = resp.read(16384)
                if not chunk:
                    break
                if drop is not None and sent + len(chunk) > drop:
                    chunk = chunk[: max(0, drop - sent)]
                if stall is not None and offset + sent + len(chunk) > stall:
                    time.sleep(float(c.get("stall_seconds", 3)))
                    stall = None
                if rate:
                    ahead = (sent + len(chunk)) / rate - (time.monotonic() - started)
                    if ahead > 0:
                        time.sleep(ahead)
                self.wfile.write(chunk)
                sent += len(chunk)
                unsaved += len(chunk)
                with lock:
                    stats["bytes"] += len(chunk)
                    record["bytes"] += len(chunk)
                if unsaved > 262144:
                    unsaved = 0
                    save_stats()
                if drop is not None and sent >= drop:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            conn.close()
            save_stats()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


save_stats()
Server(("127.0.0.1", port), Handler).serve_forever()
