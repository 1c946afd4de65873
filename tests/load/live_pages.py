"""Live pages held open during the load run, in a process of their own (asyncio, one thread):
each opens the ASGI server's event stream for the club's and the tournament's channels, as
their pages do, and notes when each event arrived (epoch seconds, one clock with the scorers).

``python -m tests.load.live_pages URL PAGES OUT CHANNEL…`` runs until SIGTERM, then writes to
OUT, as JSON, one list per page of ``[seconds, table, version]``; meanwhile ``OUT.count`` says
how many events have arrived so far. In its own process so that
200 readers parsing events do not take the scorers' interpreter (one GIL) from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
from urllib.parse import urlsplit


async def follow(host: str, port: int, path: str, heard: list, failures: list) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as e:
        failures.append(f"{type(e).__name__}: {e}")
        return
    # HTTP/1.0: the stream comes as it is, not in chunks a line could be cut across
    request = f"GET {path} HTTP/1.0\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    status = (await reader.readline()).decode()
    if " 200 " not in status:
        failures.append(status.strip())
        writer.close()
        return
    kind = ""
    try:
        while line := await reader.readline():
            text = line.decode(errors="replace")
            if text.startswith("event: "):
                kind = text[7:].strip()
            elif text.startswith("data: ") and kind == "changed":
                data = json.loads(text[6:])
                if "version" in data:
                    heard.append([time.time(), data["table"], data["version"]])
    finally:
        writer.close()


async def main(url: str, pages: int, out: str, channels: list[str]) -> None:
    parts = urlsplit(url)
    path = "/live/events/?" + "&".join(f"channel={c}" for c in channels)
    heard: list[list] = [[] for _ in range(pages)]
    failures: list[str] = []
    tasks = [
        asyncio.create_task(follow(parts.hostname, parts.port, path, heard[n], failures))
        for n in range(pages)
    ]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    while not stop.is_set():  # how many events so far, for the run to see them settle
        with open(f"{out}.count", "w") as f:
            f.write(str(sum(len(page) for page in heard)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with open(out, "w") as f:
        json.dump({"heard": heard, "failures": failures}, f)


if __name__ == "__main__":
    url, pages, out, *channels = sys.argv[1:]
    asyncio.run(main(url, int(pages), out, channels))
