"""Execute one notebook headless with nbclient and export it to HTML.

Usage: python3 _execute_notebook.py <in.ipynb> <out.ipynb> <out.html>
       [--grace SECONDS] [--timeout SECONDS] [--kernel NAME] [--cwd DIR]

Why a subclass: the Deno kernel can send a cell's output after it has
reported idle; stock nbclient stops listening at idle and the output is
lost. After each cell we keep reading iopub for a grace period (extended
while messages keep coming) and add late outputs to the cell.

Errors in cells do not stop execution (allow_errors) so the written
notebook shows every failure; the caller inspects the outputs. Exit 0 when
the notebook ran to the end, 1 on a kernel or startup failure.
"""

import argparse
import asyncio
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete
from nbconvert import HTMLExporter


class GraceClient(NotebookClient):
    grace = 0.5

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        await super()._async_poll_output_msg(parent_msg_id, cell, cell_index)
        deadline = time.monotonic() + self.grace
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            try:
                msg = await asyncio.wait_for(
                    self.kc.iopub_channel.get_msg(timeout=None), remaining
                )
            except (asyncio.TimeoutError, Exception) as error:  # noqa: BLE001
                if isinstance(error, asyncio.TimeoutError):
                    return
                return
            if msg["parent_header"].get("msg_id") != parent_msg_id:
                continue
            if msg["msg_type"] != "status":
                sys.stderr.write(
                    f"late output in cell {cell_index}: {msg['msg_type']}\n"
                )
            try:
                self.process_message(msg, cell, cell_index)
            except CellExecutionComplete:
                pass
            # More may follow: keep listening a little longer.
            deadline = max(deadline, time.monotonic() + self.grace / 2)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out_ipynb")
    parser.add_argument("out_html")
    parser.add_argument("--grace", type=float, default=0.5)
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--kernel", default="deno")
    parser.add_argument("--cwd", default=".")
    args = parser.parse_args()

    nb = nbformat.read(args.source, as_version=4)
    client = GraceClient(
        nb,
        timeout=args.timeout,
        kernel_name=args.kernel,
        allow_errors=True,
        record_timing=True,
        resources={"metadata": {"path": args.cwd}},
    )
    client.grace = args.grace
    try:
        client.execute()
    except Exception as error:  # noqa: BLE001
        sys.stderr.write(f"Cannot execute {args.source}: {error}\n")
        nbformat.write(nb, args.out_ipynb)
        return 1
    nbformat.write(nb, args.out_ipynb)
    body, _ = HTMLExporter().from_notebook_node(nb)
    with open(args.out_html, "w", encoding="utf-8") as f:
        f.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
