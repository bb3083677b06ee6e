"""kforecast's measurement farm: a team's GPUs behind one worker URL, on Ray Serve.

`app.build` makes the Serve application; `process.WorkerProcess` runs one
`kforecast worker --listen` on loopback for a replica.
"""

__version__ = "0.1.0"
